// The layering rule (eslint/layers.js) as `npm run lint` runs it: the repository's own config,
// applied to source text placed at a path inside src/.
import { fileURLToPath } from 'node:url'

import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const cwd = fileURLToPath(new URL('../../', import.meta.url))
const eslint = new ESLint({ cwd })

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${cwd}${file}` })
  return result!.messages.filter((m) => m.ruleId === 'curata/layers').map((m) => m.message)
}

describe('the layering rule', () => {
  it('fails an upward import: the content layer importing a feature', async () => {
    const errors = await layerErrors(
      'src/content/urls/injected.ts',
      "import { buildJob } from '../../curation/builder/build-segment.ts'\nexport const x = buildJob\n",
    )
    expect(errors).toEqual([expect.stringMatching(/^content\/ may not import from curation\/ .*curation is layer 3, content is layer 1/)])
  })

  it('fails the platform importing anything above it, type-only and re-exports included', async () => {
    const code =
      "import type { Scraper } from '../scraping/scraper.ts'\nexport type { Segment } from '../curation/segments/schemas.ts'\nexport type S = Scraper\n"
    expect(await layerErrors('src/platform/injected.ts', code)).toHaveLength(2)
  })

  it('fails a sideways import between features of one layer', async () => {
    const errors = await layerErrors('src/pixel/injected.ts', "import { createScraper } from '../scraping/scraper.ts'\nexport const x = createScraper\n")
    expect(errors).toEqual([expect.stringMatching(/^pixel\/ may not import from scraping\/ .*features of one layer do not import each other/)])
  })

  it('fails a dynamic import upward', async () => {
    expect(await layerErrors('src/scraping/injected.ts', "export const m = () => import('../adcp/server.ts')\n")).toHaveLength(1)
  })

  it('passes downward imports, imports inside a feature, and packages', async () => {
    const code = [
      "import { Type } from '@sinclair/typebox'",
      "import { rootDomain } from '../content/urls/domains.ts'",
      "import type { AppContext } from '../platform/context.ts'",
      "import { createScraper } from '../scraping/scraper.ts'",
      "import { buildJob } from './builder/build-segment.ts'",
      'export const x = [Type, rootDomain, createScraper, buildJob] as const',
      'export type C = AppContext',
      '',
    ].join('\n')
    expect(await layerErrors('src/curation/injected.ts', code)).toEqual([])
  })

  it('fails a folder under src/ that is not a known layer', async () => {
    expect(await layerErrors('src/misc/injected.ts', 'export const x = 1\n')).toEqual([expect.stringMatching(/misc\/ is not a known layer/)])
  })
})
