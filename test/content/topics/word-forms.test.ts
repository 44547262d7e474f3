import { describe, expect, it } from 'vitest'
import { joinedForm, knownForm } from '../../../src/content/topics/word-forms.ts'

// A made-up model: how surely each word names a topic.
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
  cybersecurity: 0.98,
  cyber: 0.03,
  security: 0.15,
  car: 0.9,
  pet: 0.8,
  carpet: 0.7,
}
const strength = (w: string): number => strengths[w] ?? 0

describe('knownForm', () => {
  it('reads an agent noun as its activity or field when that names a topic clearly more surely', () => {
    expect(knownForm('gardeners', strength)).toBe('gardening')
    expect(knownForm('economists', strength)).toBe('economy')
    expect(knownForm('shoppers', strength)).toBe('shop')
  })

  it('leaves a word that names its topic surely already, or whose form is no clearer', () => {
    expect(knownForm('golfers', strength)).toBeNull()
    expect(knownForm('palestinians', strength)).toBeNull()
    expect(knownForm('xyzers', strength)).toBeNull()
    expect(knownForm('er', strength)).toBeNull()
  })
})

describe('joinedForm', () => {
  it('joins two words the model knows only as one', () => {
    expect(joinedForm('cyber', 'security', strength)).toBe('cybersecurity')
  })

  it('leaves two words each of which names a topic as surely', () => {
    expect(joinedForm('car', 'pet', strength)).toBeNull()
    expect(joinedForm('data', 'base', strength)).toBeNull()
  })
})
