/**
 * Rules of a segment request beyond its JSON shape: a prompt or example URLs must be given (400),
 * URLs must be indexable, domains must be host names and the taxonomy must exist (422, naming the
 * offending entry).
 */

import type { TaxonomyNode } from '../../content/taxonomy/taxonomy.ts'
import { findByNames, getNode } from '../../content/taxonomy/taxonomy.ts'
import { interpretPrompt, type PromptIntent } from '../../content/topics/interpret-prompt.ts'
import { normalizeDomain } from '../../content/urls/domains.ts'
import { isNormalizeError, normalizeUrl } from '../../content/urls/normalize-url.ts'
import type { ErrorDetail } from '../../platform/http/errors.ts'
import { badRequest, unprocessable } from '../../platform/http/errors.ts'
import type { CreateSegmentRequestBody } from './schemas.ts'

export interface SegmentInput {
  name: string | null
  prompt: string | null
  exampleUrls: string[]
  taxonomy: TaxonomyNode | null
  extraHops: number | null
  blockTlds: string[] | null
  blockKeywords: string[] | null
}

const text = (v: string | null | undefined): string | null => {
  const t = v?.trim()
  return t ? t : null
}

/** Checks every URL; the first malformed one is a 422 naming its index. Returns them trimmed, duplicates dropped. */
export function checkUrls(urls: readonly string[], path: string): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  const problems: ErrorDetail[] = []
  urls.forEach((raw, i) => {
    const n = normalizeUrl(raw)
    if (isNormalizeError(n)) {
      problems.push({ path: `${path}.${i}`, message: `${path}.${i} (index ${i}) is not a usable URL: ${n.error}` })
      return
    }
    if (seen.has(n.url)) return
    seen.add(n.url)
    out.push(raw.trim())
  })
  if (problems.length) throw unprocessable(problems.map((p) => p.message).join('; '), problems)
  return out
}

/** Normalizes domain names; the malformed ones are a 422 naming their index. */
export function checkDomains(domains: readonly string[], path: string): string[] {
  const out = new Set<string>()
  const problems: ErrorDetail[] = []
  domains.forEach((raw, i) => {
    const d = normalizeDomain(raw)
    if (d === null) problems.push({ path: `${path}.${i}`, message: `${path}.${i} (index ${i}) is not a domain name: ${JSON.stringify(raw.slice(0, 100))}` })
    else out.add(d)
  })
  if (problems.length) throw unprocessable(problems.map((p) => p.message).join('; '), problems)
  return [...out]
}

export function checkKeywords(keywords: readonly string[], path: string): string[] {
  const out = new Set<string>()
  const problems: ErrorDetail[] = []
  keywords.forEach((raw, i) => {
    const k = raw.trim().replace(/\s+/g, ' ')
    if (!/[\p{L}\p{N}]/u.test(k)) problems.push({ path: `${path}.${i}`, message: `${path}.${i} (index ${i}) has no letter or digit to match` })
    else out.add(k)
  })
  if (problems.length) throw unprocessable(problems.map((p) => p.message).join('; '), problems)
  return [...out]
}

/** The taxonomy node named by taxonomy_id and/or level names; both given must agree. */
export function resolveTaxonomy(body: Pick<CreateSegmentRequestBody, 'taxonomy_id' | 'level1_name' | 'level2_name' | 'level3_name'>): TaxonomyNode | null {
  const [l1, l2, l3] = [text(body.level1_name), text(body.level2_name), text(body.level3_name)]
  let byId: TaxonomyNode | null = null
  if (body.taxonomy_id !== undefined && body.taxonomy_id !== null) {
    byId = getNode(body.taxonomy_id) ?? null
    if (!byId) {
      throw unprocessable(`body.taxonomy_id ${body.taxonomy_id} is not a category of the taxonomy (browse GET /v1/curation/taxonomy)`, [
        { path: 'body.taxonomy_id', message: 'unknown taxonomy id' },
      ])
    }
  }
  if (!l1 && !l2 && !l3) return byId
  if (!l1 || (l3 && !l2)) {
    throw unprocessable('taxonomy level names must be given from level1_name down, without gaps', [
      { path: l1 ? 'body.level2_name' : 'body.level1_name', message: 'missing a higher level' },
    ])
  }
  const byNames = findByNames(l1, l2, l3)
  const path = [l1, l2, l3].filter(Boolean).join(' > ')
  if (!byNames) {
    throw unprocessable(`no taxonomy category is named ${JSON.stringify(path)} (browse GET /v1/curation/taxonomy)`, [
      { path: l3 ? 'body.level3_name' : l2 ? 'body.level2_name' : 'body.level1_name', message: 'unknown taxonomy name' },
    ])
  }
  if (byId) {
    // A tier-4 node carries its parent's level names: accept those for it.
    const same = byId.id === byNames.id || (byId.tier === 4 && byId.parent_id === byNames.id)
    if (!same) {
      throw unprocessable(`taxonomy_id ${byId.id} is ${JSON.stringify(pathOf(byId))}, not ${JSON.stringify(path)}`, [
        { path: 'body.taxonomy_id', message: 'does not match the level names' },
      ])
    }
    return byId
  }
  return byNames
}

const pathOf = (n: TaxonomyNode): string => [n.level1_name, n.level2_name, n.level3_name].filter(Boolean).join(' > ')

/**
 * Why a prompt that names no content topic cannot select pages ("names no content topic: found …"),
 * each word with why it cannot target content ("moms 25-54", places, common words, symbols); null
 * for a topical prompt.
 */
export function notTopical(intent: PromptIntent): string | null {
  if (intent.topical) return null
  const read = intent.interpretation
  const named = [
    ...read.audience.map((w) => `"${w}" (audience)`),
    ...read.ignored.map((i) => `"${i.word}" (${i.why})`),
    ...read.blocks.terms.map((w) => `"${w}" (exclusion)`),
  ]
  const found = named.length ? `found ${[...new Set(named)].slice(0, 20).join(', ')}` : 'found no word'
  return `names no content topic: ${found}. Audience, place and common words cannot target pages; name what they read (e.g. "moms interested in cooking"), or send example_urls or a taxonomy category`
}

/** A prompt alone must say what content to find: one that names no topic is a 422 saying why (notTopical). */
export function checkTopical(prompt: string): void {
  const why = notTopical(interpretPrompt(prompt))
  if (why) throw unprocessable(`body.prompt ${why}`, [{ path: 'body.prompt', message: 'no topical words' }])
}

/** The prompt of a reading request, trimmed: an empty one is a 400. */
export function promptToRead(prompt: string): string {
  const t = text(prompt)
  if (!t) throw badRequest('body.prompt is empty', [{ path: 'body.prompt', message: 'empty' }])
  return t
}

export function validateSegmentRequest(body: CreateSegmentRequestBody): SegmentInput {
  const prompt = text(body.prompt)
  const rawUrls = body.example_urls ?? []
  if (!prompt && rawUrls.length === 0) {
    throw badRequest('send a prompt, example_urls, or both', [{ path: 'body.prompt', message: 'a prompt or example_urls is required' }])
  }
  const exampleUrls = checkUrls(rawUrls, 'body.example_urls')
  const taxonomy = resolveTaxonomy(body)
  const blockTlds = body.block_tlds ? checkDomains(body.block_tlds, 'body.block_tlds') : null
  const blockKeywords = body.block_keywords ? checkKeywords(body.block_keywords, 'body.block_keywords') : null
  if (prompt && !exampleUrls.length && !taxonomy) checkTopical(prompt)
  return { name: text(body.name), prompt, exampleUrls, taxonomy, extraHops: body.extra_hops_count ?? null, blockTlds, blockKeywords }
}
