// Loads the two extraction benchmarks from fixtures/extraction and the
// language labels of their pages.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { parseHTML } from 'linkedom'

export const FIXTURES_DIR = resolve(fileURLToPath(new URL('../../fixtures', import.meta.url)))
const EXTRACTION_DIR = join(FIXTURES_DIR, 'extraction')

export interface BenchPage {
  set: 'scrapinghub' | 'readability'
  id: string
  url: string
  html: string
  /** Gold article text: scrapinghub articleBody, or the text of Readability's expected.html. */
  expectedText: string
  expectedTitle: string | null
  expectedPublished: string | null
}

function gunzipText(path: string): string {
  return gunzipSync(readFileSync(path)).toString('utf8')
}

export function loadScrapinghub(): BenchPage[] {
  const dir = join(EXTRACTION_DIR, 'scrapinghub')
  const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { articleBody: string; url: string }>
  return Object.entries(truth)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([id, gold]) => ({
      set: 'scrapinghub' as const,
      id,
      url: gold.url,
      html: gunzipText(join(dir, 'html', `${id}.html.gz`)),
      expectedText: gold.articleBody,
      expectedTitle: null,
      expectedPublished: null,
    }))
}

/** Readability's own tests run every page as if served from this URL. */
export const READABILITY_TEST_URL = 'http://fakehost/test/page.html'

export function loadReadabilityPages(): BenchPage[] {
  const dir = join(EXTRACTION_DIR, 'readability-test-pages')
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'source.html.gz')))
    .sort()
    .map((id) => {
      const meta = JSON.parse(readFileSync(join(dir, id, 'expected-metadata.json'), 'utf8')) as { title?: string | null; publishedTime?: string | null }
      const expectedHtml = gunzipText(join(dir, id, 'expected.html.gz'))
      const { document } = parseHTML(`<!DOCTYPE html><html><body>${expectedHtml}</body></html>`)
      return {
        set: 'readability' as const,
        id,
        url: READABILITY_TEST_URL,
        html: gunzipText(join(dir, id, 'source.html.gz')),
        expectedText: document.body.textContent ?? '',
        expectedTitle: meta.title ?? null,
        expectedPublished: meta.publishedTime ?? null,
      }
    })
}

export interface LanguageLabel {
  set: 'scrapinghub' | 'readability'
  id: string
  lang: string
  unusable: boolean
}

export function loadLanguageLabels(): LanguageLabel[] {
  const path = join(FIXTURES_DIR, 'classification', 'dev-labels.json')
  return JSON.parse(readFileSync(path, 'utf8')) as LanguageLabel[]
}
