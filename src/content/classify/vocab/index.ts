import { CULTURE } from './culture.ts'
import { ECONOMY } from './economy.ts'
import { EUROPEAN } from './european.ts'
import { LEISURE } from './leisure.ts'
import { SCIENCE } from './science.ts'
import { SENSITIVE } from './sensitive.ts'
import { SOCIETY } from './society.ts'
import { SUBTOPICS } from './subtopics.ts'
import { TECH } from './tech.ts'
import type { Vocabulary } from './types.ts'

export type { Vocabulary } from './types.ts'
export { EUROPEAN }

/** Every curated list, in one table. The sources use disjoint keys (a test checks it). */
export const VOCABULARY_PARTS: readonly Vocabulary[] = [SOCIETY, ECONOMY, SCIENCE, TECH, LEISURE, CULTURE, SUBTOPICS, SENSITIVE]

export interface VocabEntry {
  /** The term as written (may be a phrase). */
  term: string
  weight: number
}

/** Splits "a^2, b c, d" into entries; a missing weight means 1. */
export function parseEntries(list: string): VocabEntry[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(.*?)\^(\d+(?:\.\d+)?)$/.exec(s)
      return m ? { term: (m[1] ?? '').trim(), weight: Number(m[2]) } : { term: s, weight: 1 }
    })
}
