// Two pages of one tier-1 topic (Technology & Computing) and different themes, for the theme tests.
import type { PageInput } from '../../../src/content/classify/index.ts'

export const circuitPage: PageInput = {
  title: 'Building a 555 timer circuit on a breadboard',
  text: 'Wire the resistor and the capacitor to pins 6 and 7, then power the chip from a 9 volt battery. The LED blinks at a rate set by the resistor values; an oscilloscope shows the square wave on the output pin.',
}

export const laptopPage: PageInput = {
  title: 'Apple MacBook Pro review: the M3 laptop',
  text: 'The new MacBook Pro is fast and quiet. Apple kept the keyboard, the battery lasts a full day, and macOS runs every app we tried; the display is the best on any laptop.',
}
