// What the shipped topic model was trained from, besides the corpora: the curated vocabulary (one
// pseudo-document per term), the taxonomy's names, the corpus class map, the function and generic
// word lists and how the stemmer reads words. The trainer records their fingerprint in
// topic-model.json, and a test compares it with the tree's, so an edit of any of them cannot ship
// without the model being retrained (and CLASSIFIER_VERSION bumped: pages are reclassified). The
// tokenizer itself (words(), fold()) is not fingerprinted.
import { createHash } from 'node:crypto'
import { FUNCTION_WORD_SET, GENERIC_WORD_SET } from '../classify/stopwords.ts'
import { stem } from '../classify/text.ts'
import { VOCABULARY_PARTS } from '../classify/vocab/index.ts'
import { allNodes } from '../taxonomy/taxonomy.ts'
import classMap from './class-map.json' with { type: 'json' }
import { vectorWords } from './word-vectors.ts'

// The model's features are stems, so how the stemmer reads words is an input: the stems of the
// 20,000 most frequent English words (the word-vector list) stand for it.
const STEMMER_PROBE_WORDS = 20_000

function stemmerProbe(): string {
  return vectorWords().slice(0, STEMMER_PROBE_WORDS).map(stem).join(' ')
}

export function trainingInputsFingerprint(): string {
  const names = allNodes().map((n) => [n.unique_id, n.name])
  const stems = stemmerProbe()
  const common = [[...FUNCTION_WORD_SET], [...GENERIC_WORD_SET]]
  return createHash('sha256')
    .update(JSON.stringify({ vocabulary: VOCABULARY_PARTS, names, classMap, stems, common }))
    .digest('hex')
    .slice(0, 16)
}
