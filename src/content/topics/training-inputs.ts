// What the shipped topic model was trained from, besides the corpora: the curated vocabulary (one
// pseudo-document per term), the taxonomy's names and the corpus class map. The trainer records their
// fingerprint in topic-model.json, and a test compares it with the tree's, so a vocabulary edit cannot
// ship without the model being retrained (and CLASSIFIER_VERSION bumped: pages are reclassified).
import { createHash } from 'node:crypto'
import { VOCABULARY_PARTS } from '../classify/vocab/index.ts'
import { allNodes } from '../taxonomy/taxonomy.ts'
import classMap from './class-map.json' with { type: 'json' }

export function trainingInputsFingerprint(): string {
  const names = allNodes().map((n) => [n.unique_id, n.name])
  return createHash('sha256')
    .update(JSON.stringify({ vocabulary: VOCABULARY_PARTS, names, classMap }))
    .digest('hex')
    .slice(0, 16)
}
