// Synthetic-but-realistic pages for the segment build benchmark.
//
// Each page is an article on one topic: sentences mixing general English with the topic's own terms
// (taken from the classifier's vocabulary, tier-1 topic plus, often, one of its sub-topics), with a
// sprinkle of a second topic. Pages belong to domains that mostly stay on one topic. Categories,
// primary category and embedding come from the real classifier, run on a pool of base articles; each
// page is a base article with its sentences reordered (the classifier reads words, not their order,
// so the stored analysis is exactly the classifier's output for the page's text). SimHashes are
// random 64-bit values except for the deliberate near-duplicates (2% of pages: another domain's
// article with 0–2 bits flipped), because computing real ones for 100k pages costs minutes and
// distinct random texts are far apart anyway. Also seeded: made-for-advertising domains (3%), thin
// pages (3%), pages in German and French (8%), and pixel traffic for a tenth of the domains.

import type { Embedding, ScoredCategory } from '../../src/content/classify/index.ts'
import { classifyPage, embedPage, primaryLeaf } from '../../src/content/classify/index.ts'
import { parseEntries, VOCABULARY_PARTS } from '../../src/content/classify/vocab/index.ts'
import { getNodeByUniqueId } from '../../src/content/taxonomy/taxonomy.ts'
import type { Queryable } from '../../src/platform/db/db.ts'

export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FILLER = `the a of and to in that it is was for on with as his they at be this from have or by one had not but what
  all were when we there can an your which their said if do will each about how up out them then she many some so these
  would other into has more her two like him see time could no make than first been its who now people my made over did
  down only way find use may water long little very after words called just where most know get through back much before
  go good new write our used me man too any day same right look think also around another came come work three word must
  because does part even place well such here take why things help put years different away again off went old number
  great tell men say small every found still between name should home big give air line set own under read last never us
  left end along while might next sound below saw something thought both few those always looked show large often together
  asked house world going want school important until form food keep children feet land side without boy once animals life
  enough took sometimes four head above kind began almost live page got earth need far hand high year mother light parts
  country father let night following picture being study second eyes soon times story boys since white days ever paper hard
  near sentence better best across during today others however sure means knew its try told young miles sun ways thing whole
  hear example heard several change answered room sea against top turned learn point city play toward five using himself usually`
  .split(/\s+/)
  .filter(Boolean)

interface Topic {
  id: string
  terms: string[]
  subtopics: { id: string; terms: string[] }[]
}

function topics(): Topic[] {
  const vocab: Record<string, string> = Object.assign({}, ...VOCABULARY_PARTS)
  const out: Topic[] = []
  for (const [key, list] of Object.entries(vocab)) {
    const node = getNodeByUniqueId(key)
    if (!node || node.tier !== 1) continue
    const subtopics = Object.entries(vocab)
      .filter(([k]) => getNodeByUniqueId(k)?.parent_id === node.id)
      .map(([k, l]) => ({ id: k, terms: parseEntries(l).map((e) => e.term) }))
    out.push({ id: key, terms: parseEntries(list).map((e) => e.term), subtopics })
  }
  return out
}

interface BaseArticle {
  topic: number
  title: string
  sentences: string[]
  categories: ScoredCategory[]
  primary: number | null
  embedding: Embedding
  language: string
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

function article(r: () => number, all: Topic[], topicIndex: number, words: number): Omit<BaseArticle, 'categories' | 'primary' | 'embedding'> {
  const t = all[topicIndex]!
  const sub = t.subtopics.length && r() < 0.6 ? pick(r, t.subtopics) : null
  const other = pick(r, all)
  const word = (): string => {
    const x = r()
    if (x < 0.09) return pick(r, t.terms)
    if (sub && x < 0.13) return pick(r, sub.terms)
    if (x < 0.145) return pick(r, other.terms)
    return pick(r, FILLER)
  }
  const sentences: string[] = []
  let n = 0
  while (n < words) {
    const len = 8 + Math.floor(r() * 12)
    const s = Array.from({ length: len }, word)
    s[0] = s[0]!.charAt(0).toUpperCase() + s[0]!.slice(1)
    sentences.push(`${s.join(' ')}.`)
    n += len
  }
  const title = Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? pick(r, sub?.terms ?? t.terms) : pick(r, FILLER))).join(' ')
  const language = r() < 0.92 ? 'en' : r() < 0.5 ? 'de' : 'fr'
  return { topic: topicIndex, title: title.charAt(0).toUpperCase() + title.slice(1), sentences, language }
}

export interface SyntheticOptions {
  pages: number
  seed?: number
  /** Base articles classified for real (pages are reorderings of them). */
  baseArticles?: number
  pagesPerDomain?: number
}

export interface SyntheticPage {
  url: string
  host: string
  tld: string
  title: string
  full_text: string
  language: string
  word_count: number
  categories: ScoredCategory[]
  primary_category: number | null
  embedding: Embedding
  signals: Record<string, unknown>
  simhash: string
  links: string[]
}

const TLDS = ['com', 'net', 'org', 'co.uk', 'de', 'io', 'info', 'news'] as const

/** A generator of page batches; deterministic for a seed. */
export function syntheticIndex(opts: SyntheticOptions) {
  const r = rng(opts.seed ?? 42)
  const all = topics()
  const baseCount = opts.baseArticles ?? Math.max(50, Math.round(opts.pages / 5))
  const perDomain = opts.pagesPerDomain ?? 25
  const domainCount = Math.max(1, Math.round(opts.pages / perDomain))
  const domains = Array.from({ length: domainCount }, (_, i) => {
    const topic = Math.floor(r() * all.length)
    const tld = pick(r, TLDS)
    return { name: `site${i}-${all[topic]!.id.toLowerCase()}.${tld}`, topic, mfa: r() < 0.03 }
  })
  const byTopic: number[][] = all.map(() => [])
  const bases: BaseArticle[] = []
  const t0 = performance.now()
  for (let i = 0; i < baseCount; i++) {
    const topic = i < all.length ? i : Math.floor(r() * all.length)
    const a = article(r, all, topic, 150 + Math.floor(r() * 450))
    const input = { title: a.title, text: a.sentences.join(' '), language: a.language }
    const c = classifyPage(input)
    bases.push({ ...a, categories: c.categories, primary: primaryLeaf(c), embedding: embedPage(input) })
    byTopic[topic]!.push(i)
  }
  const classifySeconds = (performance.now() - t0) / 1000
  const randomHash = (): bigint => (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32))
  const recent: SyntheticPage[] = []

  function page(i: number): SyntheticPage {
    const d = domains[i % domainCount]!
    // Near-duplicate: another domain's recent article, hash within 2 bits.
    if (recent.length > 50 && r() < 0.02) {
      const src = pick(r, recent)
      let h = BigInt.asUintN(64, BigInt(src.simhash))
      for (let k = Math.floor(r() * 3); k > 0; k--) h ^= 1n << BigInt(Math.floor(r() * 64))
      const host = `www.${d.name}`
      return { ...src, url: `https://${host}/copy/${i}`, host, tld: d.name, simhash: BigInt.asIntN(64, h).toString() }
    }
    const topic = r() < 0.8 ? d.topic : Math.floor(r() * all.length)
    const pool = byTopic[topic]!.length ? byTopic[topic]! : byTopic[d.topic]!
    const base = bases[pick(r, pool)]!
    const sentences = [...base.sentences]
    for (let k = sentences.length - 1; k > 0; k--) {
      const j = Math.floor(r() * (k + 1))
      ;[sentences[k], sentences[j]] = [sentences[j]!, sentences[k]!]
    }
    const thin = r() < 0.03
    const text = (thin ? sentences.slice(0, 4) : sentences).join(' ')
    const words = text.split(' ').length
    const host = `www.${d.name}`
    const slug = base.title
      .toLowerCase()
      .split(' ')
      .slice(0, 4)
      .join('-')
      .replace(/[^a-z0-9-]/g, '')
    const adSlots = d.mfa ? 8 + Math.floor(r() * 10) : Math.floor(r() * 4)
    const p: SyntheticPage = {
      url: `https://${host}/${all[topic]!.id.toLowerCase()}/${slug}-${i}`,
      host,
      tld: d.name,
      title: base.title,
      full_text: text,
      language: base.language,
      word_count: words,
      categories: base.categories,
      primary_category: base.primary,
      embedding: base.embedding,
      signals: {
        ad_slot_count: adSlots,
        ad_slots_per_1000_words: Math.round((adSlots * 100000) / Math.max(words, 100)) / 100,
        has_meta_refresh: false,
        has_js_refresh: d.mfa,
        slideshow_pattern: d.mfa && r() < 0.7,
        url_is_paginated: false,
        main_text_ratio: d.mfa ? 0.3 : 0.6 + r() * 0.35,
      },
      simhash: BigInt.asIntN(64, randomHash()).toString(),
      links: Array.from({ length: 5 }, (_, k) => `https://${host}/${all[d.topic]!.id.toLowerCase()}/page-${(i + (k + 1) * domainCount) % opts.pages}`),
    }
    recent.push(p)
    if (recent.length > 500) recent.shift()
    return p
  }

  return {
    classifySeconds,
    domains: domains.map((d) => d.name),
    mfaDomains: domains.filter((d) => d.mfa).map((d) => d.name),
    *batches(size: number): Generator<SyntheticPage[]> {
      for (let start = 0; start < opts.pages; start += size) {
        yield Array.from({ length: Math.min(size, opts.pages - start) }, (_, k) => page(start + k))
      }
    },
  }
}

/** Inserts a batch straight into pages (state done) and page_categories. */
export async function insertPages(q: Queryable, batch: SyntheticPage[], now: Date): Promise<void> {
  const { rows } = await q.query<{ id: number; url: string }>(
    `INSERT INTO pages (url, tld, host, state, errors, requested_at, fetched_at, final_url, http_status, content_type, title, full_text,
                        language, word_count, categories, primary_category, embedding, signals, simhash, links)
     SELECT u.url, u.tld, u.host, 'done', CASE WHEN u.word_count < 50 THEN '{E004}'::text[] ELSE '{}'::text[] END, $1, $1, u.url, 200,
            'text/html; charset=utf-8', u.title, u.full_text, u.language, u.word_count, u.categories::jsonb, u.primary_category,
            u.embedding::jsonb, u.signals::jsonb, u.simhash::bigint, u.links::jsonb
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::text[], $10::int[], $11::text[],
                   $12::text[], $13::text[], $14::text[])
            AS u(url, tld, host, title, full_text, language, word_count, categories, primary_category, embedding, signals, simhash, links)
     ON CONFLICT (url) DO NOTHING
     RETURNING id, url`,
    [
      now,
      batch.map((p) => p.url),
      batch.map((p) => p.tld),
      batch.map((p) => p.host),
      batch.map((p) => p.title),
      batch.map((p) => p.full_text),
      batch.map((p) => p.language),
      batch.map((p) => p.word_count),
      batch.map((p) => JSON.stringify(p.categories)),
      batch.map((p) => p.primary_category),
      batch.map((p) => JSON.stringify(p.embedding)),
      batch.map((p) => JSON.stringify(p.signals)),
      batch.map((p) => p.simhash),
      batch.map((p) => JSON.stringify(p.links)),
    ],
  )
  const byUrl = new Map(rows.map((r) => [r.url, r.id]))
  const ids: number[] = []
  const tax: number[] = []
  const scores: number[] = []
  for (const p of batch) {
    const id = byUrl.get(p.url)
    if (id === undefined) continue
    for (const c of p.categories) {
      ids.push(id)
      tax.push(c.id)
      scores.push(c.score)
    }
  }
  await q.query(
    `INSERT INTO page_categories (taxonomy_id, page_id, score) SELECT t, p, s FROM unnest($1::int[], $2::bigint[], $3::real[]) AS c(t, p, s)
     ON CONFLICT DO NOTHING`,
    [tax, ids, scores],
  )
}

/** Pixel traffic for a tenth of the domains; a third of those bot-heavy. */
export async function insertTraffic(q: Queryable, domains: string[], now: Date, seed = 7): Promise<void> {
  const r = rng(seed)
  const chosen = domains.filter(() => r() < 0.1)
  const loads = chosen.map(() => 500 + Math.floor(r() * 20000))
  const bots = loads.map((l) => Math.floor(l * (r() < 0.33 ? 0.6 + r() * 0.35 : r() * 0.3)))
  await q.query(
    `INSERT INTO domain_traffic_stats (domain, loads, non_human_loads, updated_at)
     SELECT d, l, n, $4 FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS t(d, l, n) ON CONFLICT (domain) DO NOTHING`,
    [chosen, loads, bots, now],
  )
}
