import { describe, expect, it } from 'vitest'
import { joinedForm, knownForm } from '../../../src/content/topics/word-forms.ts'

// A made-up model: how surely each word names a topic, and which words are close in meaning.
const strengths: Record<string, number> = {
  gardening: 0.9,
  gardeners: 0.07,
  economy: 0.57,
  economists: 0.28,
  shop: 0.6,
  golfers: 0.71,
  golf: 0.86,
  palestinians: 0.4,
  palestine: 0.43,
  copper: 0.2,
  cop: 0.8,
  cybersecurity: 0.98,
  cyber: 0.03,
  security: 0.15,
  car: 0.9,
  pet: 0.8,
  carpet: 0.7,
  data: 0.5,
  base: 0.1,
  database: 0.6,
}
const strength = (w: string): number => strengths[w] ?? 0
const close = new Set(['gardeners gardening', 'economists economy', 'shoppers shop', 'palestinians palestine', 'golfers golf'])
const related = (a: string, b: string): number | null => (close.has(`${a} ${b}`) ? 0.6 : b in strengths ? 0.05 : null)

describe('knownForm', () => {
  it('reads an agent noun as its activity or field when that names a topic clearly more surely', () => {
    expect(knownForm('gardeners', strength, related)).toBe('gardening')
    expect(knownForm('economists', strength, related)).toBe('economy')
    expect(knownForm('shoppers', strength, related)).toBe('shop')
  })

  it('leaves a word that names its topic surely already, or whose form is no clearer', () => {
    expect(knownForm('golfers', strength, related)).toBeNull()
    expect(knownForm('palestinians', strength, related)).toBeNull()
    expect(knownForm('xyzers', strength, related)).toBeNull()
    expect(knownForm('er', strength, related)).toBeNull()
  })

  it('takes no cut that only looks like a form: "copper" is not "cop"', () => {
    expect(knownForm('copper', strength, related)).toBeNull()
  })
})

describe('joinedForm', () => {
  it('joins two words the model knows only as one', () => {
    expect(joinedForm('cyber', 'security', strength)).toBe('cybersecurity')
  })

  it('leaves two words one of which names a topic about as surely as the joined word', () => {
    expect(joinedForm('car', 'pet', strength)).toBeNull()
    expect(joinedForm('data', 'base', strength)).toBeNull()
  })
})
