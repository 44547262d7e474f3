// The shipped topic, theme and sentence-vector topic models were trained on the tree's vocabulary, taxonomy names, class map and stemmer.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { writtenTrainingFingerprint } from '../../../scripts/lib/topic-corpora.ts'
import { VOCABULARY_PARTS } from '../../../src/content/classify/vocab/index.ts'
import { trainingInputsFingerprint } from '../../../src/content/topics/training-inputs.ts'

const shipped = (file: string): { trained_on: { inputs?: string | null } } =>
  JSON.parse(readFileSync(new URL(`../../../src/content/topics/${file}`, import.meta.url), 'utf8'))
const model = shipped('topic-model.json')

describe('the shipped topic model', () => {
  it('was trained on the vocabulary and class map in the tree (else: npm run train:topics, and bump CLASSIFIER_VERSION)', () => {
    expect(model.trained_on.inputs).toBe(trainingInputsFingerprint())
  })

  it('is matched by a theme model trained on the same tree (else: npm run train:themes, and bump CLASSIFIER_VERSION)', () => {
    expect(shipped('theme-model.json').trained_on.inputs).toBe(trainingInputsFingerprint())
  })

  it('is matched by a sentence-vector topic model trained on the same tree and written items (else: npm run train:semantic-topics, and bump CLASSIFIER_VERSION)', () => {
    const semantic = shipped('semantic-topics.json') as { trained_on: { inputs?: string; written?: string } }
    expect(semantic.trained_on.inputs).toBe(trainingInputsFingerprint())
    expect(semantic.trained_on.written).toBe(writtenTrainingFingerprint())
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
