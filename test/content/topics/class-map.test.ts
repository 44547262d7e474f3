import { describe, expect, it } from 'vitest'
import { ancestry, getNodeByUniqueId } from '../../../src/content/taxonomy/taxonomy.ts'
import classMap from '../../../src/content/topics/class-map.json' with { type: 'json' }
import { CORPORA, corpusTopics, TOPIC_ROOT_EXCLUDED } from '../../../src/content/topics/classes.ts'

// The reviewed mapping the topic model is trained from (scripts/train-topics.ts): a typo here would
// silently drop a corpus class from training.
describe('class-map.json', () => {
  const entries = CORPORA.flatMap((corpus) =>
    Object.entries(classMap[corpus] as Record<string, string | string[] | null>).map(([cls, v]) => [`${corpus}:${cls}`, v] as const),
  )

  it.each(entries)('%s maps to nothing, or to topical IAB 3.1 nodes', (_cls, value) => {
    const uids = value === null ? [] : [value].flat()
    if (Array.isArray(value)) expect(new Set(value).size).toBe(value.length)
    for (const uid of uids) {
      const node = getNodeByUniqueId(uid)
      expect(node, uid).toBeDefined()
      expect(TOPIC_ROOT_EXCLUDED.has(ancestry(node!.id)[0]!.unique_id)).toBe(false)
    }
  })

  it('names the tier-1 topics some corpus class maps to, and not the ones it does not', () => {
    const names = new Set([...corpusTopics()].map((id) => ancestry(id)[0]?.name))
    for (const covered of ['Politics', 'Technology & Computing', 'Sports', 'Medical Health', 'Books and Literature']) expect(names).toContain(covered)
    for (const uncovered of ['Video Gaming', 'Law', 'War and Conflicts', 'Shopping']) expect(names).not.toContain(uncovered)
  })
})
