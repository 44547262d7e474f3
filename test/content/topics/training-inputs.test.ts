// The shipped topic model was trained on the tree's vocabulary, taxonomy names and class map.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { VOCABULARY_PARTS } from '../../../src/content/classify/vocab/index.ts'
import { trainingInputsFingerprint } from '../../../src/content/topics/training-inputs.ts'

const model = JSON.parse(readFileSync(new URL('../../../src/content/topics/topic-model.json', import.meta.url), 'utf8')) as {
  trained_on: { inputs?: string | null }
}

describe('the shipped topic model', () => {
  it('was trained on the vocabulary and class map in the tree (else: npm run train:topics, and bump CLASSIFIER_VERSION)', () => {
    expect(model.trained_on.inputs).toBe(trainingInputsFingerprint())
  })

  it('has a fingerprint that moves with any vocabulary term', () => {
    const before = trainingInputsFingerprint()
    expect(before).toMatch(/^[0-9a-f]{16}$/)
    const part = VOCABULARY_PARTS[0] as Record<string, string>
    const key = Object.keys(part)[0] as string
    const list = part[key] as string
    try {
      part[key] = `${list}, a term added^2`
      expect(trainingInputsFingerprint()).not.toBe(before)
    } finally {
      part[key] = list
    }
    expect(trainingInputsFingerprint()).toBe(before)
  })
})
