// Real pages from fixtures/ (the evaluation set): a few spot checks and a floor under the whole-set
// figure, so a vocabulary edit that breaks the classifier fails here before the benchmark is run.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { classifyPage, type PageInput } from '../../../src/content/classify/index.ts'
import { getNode, getNodeByUniqueId } from '../../../src/content/taxonomy/taxonomy.ts'

const data = fileURLToPath(new URL('../../../fixtures/', import.meta.url))

interface Label {
  set: string
  id: string
  url: string
  title: string
  tier1: string[]
  lang: string
  unusable: boolean
}

function load(): { label: Label; input: PageInput }[] {
  const labels = JSON.parse(readFileSync(`${data}classification/dev-labels.json`, 'utf8')) as Label[]
  const truth = JSON.parse(readFileSync(`${data}extraction/scrapinghub/ground-truth.json`, 'utf8')) as Record<string, { articleBody: string }>
  return labels
    .filter((l) => !l.unusable && l.lang === 'en')
    .map((l) => {
      const text =
        l.set === 'scrapinghub'
          ? (truth[l.id]?.articleBody ?? '')
          : gunzipSync(readFileSync(`${data}extraction/readability-test-pages/${l.id}/expected.html.gz`))
              .toString('utf8')
              .replace(/<[^>]+>/g, ' ')
      return { label: l, input: { title: l.title, text, url: l.url || undefined, language: l.lang } }
    })
}

const tier1Ids = (r: ReturnType<typeof classifyPage>): number[] => r.categories.filter((c) => getNode(c.id)?.tier === 1).map((c) => c.id)

describe('classifyPage on dev pages', () => {
  const pages = load()
  const byId = (prefix: string) => pages.find((p) => p.label.id.startsWith(prefix))

  it.each([
    ['05844573ca7e1fba', 'Automotive'], // L.A. Auto Show
    ['04a6711caa7c6875', 'Politics'], // NYT opinion on impeachment
    ['0d46122928b6f468', 'Sports'], // Davis Cup
    ['4219d096902dad9f', 'Food & Drink'], // jam recipe
    ['002', 'Technology & Computing'], // Fetch API
  ])('%s → %s first', (id, name) => {
    const page = byId(id)
    expect(page).toBeDefined()
    const first = tier1Ids(classifyPage(page?.input ?? { title: '', text: '' }))[0]
    expect(first === undefined ? undefined : getNode(first)?.name).toBe(name)
  })

  it('keeps top-2 tier-1 accuracy on the English dev pages at 80% or more', () => {
    let hits = 0
    for (const p of pages) {
      const want = new Set(p.label.tier1.map((u) => getNodeByUniqueId(u)?.id))
      if (
        tier1Ids(classifyPage(p.input))
          .slice(0, 2)
          .some((id) => want.has(id))
      )
        hits++
    }
    expect(pages.length).toBeGreaterThan(200)
    expect(hits / pages.length).toBeGreaterThanOrEqual(0.8)
  })
})
