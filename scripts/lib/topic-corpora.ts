// The labelled topic corpora of fixtures/topics (README there), read with each class mapped onto an
// IAB 3.1 node by src/content/topics/class-map.json, and split once, deterministically, into a
// training part and a check part. Shared by the training script and the benchmarks, so both see the
// same split.
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { parseEntries, VOCABULARY_PARTS } from '../../src/content/classify/vocab/index.ts'
import { SENSITIVE } from '../../src/content/classify/vocab/sensitive.ts'
import { semanticInput } from '../../src/content/semantic/vectors.ts'
import { allNodes, ancestry, getNodeByUniqueId } from '../../src/content/taxonomy/taxonomy.ts'
import classMap from '../../src/content/topics/class-map.json' with { type: 'json' }
import type { CorpusName } from '../../src/content/topics/classes.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const topicsDir = join(root, 'fixtures/topics')

export interface LabelledText {
  corpus: CorpusName
  /** the corpus's own class name */
  cls: string
  /**
   * IAB unique ids the class maps to (class-map.json): one, or several when the corpus's class spans
   * IAB topics (its items count for each, in equal shares); empty for a class that is no content topic
   */
  uids: string[]
  title: string
  body: string
  split: 'train' | 'check'
}

/** FNV-1a of the text: a split that does not depend on file order. One item in five is held out. */
function heldOut(text: string): boolean {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0) % 5 === 0
}

const mapOf = (corpus: CorpusName): Record<string, string[]> =>
  Object.fromEntries(Object.entries(classMap[corpus] as Record<string, string | string[] | null>).map(([cls, v]) => [cls, v === null ? [] : [v].flat()]))

function huffpost(all: boolean): LabelledText[] {
  const map = mapOf('huffpost')
  const out: LabelledText[] = []
  const seen = new Set<string>()
  const csv = gunzipSync(readFileSync(join(topicsDir, 'huffpost-fewshot.csv.gz')))
    .toString('utf8')
    .split(/\r?\n/)
    .slice(1)
  for (const line of csv) {
    const m = /^(\d+),([^,]*),(.*)$/.exec(line)
    if (!m) continue
    const cls = m[2] ?? ''
    const text = (m[3] ?? '').replace(/^"|"$/g, '').replace(/""/g, '"')
    const uids = map[cls] ?? []
    if (!uids.length && !all) continue
    if (seen.has(text)) continue
    seen.add(text)
    out.push({ corpus: 'huffpost', cls, uids, title: text, body: '', split: heldOut(text) ? 'check' : 'train' })
  }
  const v3 = gunzipSync(readFileSync(join(topicsDir, 'huffpost-v3-partial/News_Category_Dataset_v3.first10k.json.gz')))
    .toString('utf8')
    .split('\n')
  for (const line of v3) {
    if (!line.trim()) continue
    const r = JSON.parse(line) as { category: string; headline: string; short_description: string }
    const uids = map[r.category] ?? []
    const key = r.headline.toLowerCase()
    if ((!uids.length && !all) || seen.has(key)) continue
    seen.add(key)
    out.push({ corpus: 'huffpost', cls: r.category, uids, title: r.headline, body: r.short_description, split: heldOut(key) ? 'check' : 'train' })
  }
  return out
}

/** Minimal ustar reader: 512-byte headers, contents padded to 512. */
function* tarEntries(buf: Buffer): Generator<{ name: string; data: Buffer }> {
  let off = 0
  while (off + 512 <= buf.length) {
    const name = buf.toString('latin1', off, off + 100).replace(/\0.*$/s, '')
    if (!name) return
    const prefix = buf.toString('latin1', off + 345, off + 500).replace(/\0.*$/s, '')
    const size = parseInt(
      buf
        .toString('latin1', off + 124, off + 136)
        .replace(/\0.*$/s, '')
        .trim() || '0',
      8,
    )
    const type = buf.toString('latin1', off + 156, off + 157)
    off += 512
    if (type === '0' || type === '\0' || type === '') yield { name: prefix ? `${prefix}/${name}` : name, data: buf.subarray(off, off + size) }
    off += Math.ceil(size / 512) * 512
  }
}

/** A newsgroup post without its headers (but its subject), quoted lines and signature. */
function cleanPost(raw: string): { title: string; body: string } {
  const split = raw.indexOf('\n\n')
  const head = split < 0 ? raw : raw.slice(0, split)
  const subject = /^Subject:\s*(?:re:\s*)*(.*)$/im.exec(head)?.[1] ?? ''
  let body = split < 0 ? '' : raw.slice(split + 2)
  const sig = body.lastIndexOf('\n--')
  if (sig > body.length * 0.5) body = body.slice(0, sig)
  body = body
    .split('\n')
    .filter((l) => !/^\s*(>|\|)/.test(l) && !/(writes|wrote):\s*$/.test(l) && !/^In article/.test(l))
    .join('\n')
  return { title: subject, body }
}

function newsgroups(all: boolean): LabelledText[] {
  const map = mapOf('20news')
  const out: LabelledText[] = []
  for (const e of tarEntries(gunzipSync(readFileSync(join(topicsDir, '20news-bydate.tar.gz'))))) {
    const m = /^20news-bydate-(train|test)\/([^/]+)\/[^/]+$/.exec(e.name)
    if (!m) continue
    const cls = m[2] ?? ''
    const uids = map[cls] ?? []
    if (!uids.length && !all) continue
    const { title, body } = cleanPost(e.data.toString('latin1'))
    if (body.trim().length < 20) continue
    out.push({ corpus: '20news', cls, uids, title, body, split: m[1] === 'test' ? 'check' : 'train' })
  }
  return out
}

function dbpedia(all: boolean): LabelledText[] {
  const map = mapOf('dbpedia')
  const classes = readFileSync(join(topicsDir, 'dbpedia14-partial/classes.txt'), 'utf8')
    .split('\n')
    .map((s) => s.trim())
  const out: LabelledText[] = []
  for (const line of gunzipSync(readFileSync(join(topicsDir, 'dbpedia14-partial/train.csv.gz')))
    .toString('utf8')
    .split(/\r?\n/)) {
    const m = /^(\d+),(.*)$/.exec(line)
    if (!m) continue
    const cls = classes[Number(m[1])] ?? ''
    const uids = map[cls] ?? []
    if (!uids.length && !all) continue
    const text = (m[2] ?? '').replace(/^"|"$/g, '').replace(/\t/g, ' ')
    out.push({ corpus: 'dbpedia', cls, uids, title: '', body: text, split: heldOut(text) ? 'check' : 'train' })
  }
  return out
}

/** The labelled items; `all` keeps the classes mapped to no topic too (distractor pages for benchmarks). */
export function loadCorpora(all = false): LabelledText[] {
  return [...huffpost(all), ...newsgroups(all), ...dbpedia(all)]
}

/** The index, among `tier1Ids` (a model's classes), of the tier-1 node above an IAB unique id; undefined outside them. */
export function tier1IndexIn(tier1Ids: readonly number[]): (uid: string) => number | undefined {
  const index = new Map(tier1Ids.map((id, i) => [id, i]))
  return (uid) => {
    const n = getNodeByUniqueId(uid)
    const root = n ? ancestry(n.id)[0] : undefined
    return root ? index.get(root.id) : undefined
  }
}

export interface WrittenItem {
  /** the IAB unique id of its tier-1 topic */
  uid: string
  title: string
  body: string
}

/** A file of team-written items: topics, each with its items. */
function readWritten(file: string): WrittenItem[] {
  const { topics } = JSON.parse(readFileSync(join(topicsDir, file), 'utf8')) as {
    topics: { unique_id: string; items: { title: string; body: string }[] }[]
  }
  return topics.flatMap((t) => t.items.map((it) => ({ uid: t.unique_id, ...it })))
}

/**
 * The team-written items of the 13 topics no corpus covers (fixtures/topics/written-topics.json), split
 * once: every other item from the first trains the sentence-vector topics (scripts/train-semantic-topics.ts),
 * the rest checks them (the topics benchmark). No other model trains on them.
 */
export function writtenItems(part: 'train' | 'check'): WrittenItem[] {
  return readWritten('written-topics.json').filter((_, i) => (i % 2 === 0) === (part === 'train'))
}

/**
 * What the sentence-vector topics train on, as the encoder reads it: the training half of
 * written-topics.json and all of the second batch (written-topics-train.json, 2026-11-29), which
 * nothing checks on, so the check half stays the same.
 */
export function writtenTraining(): { uid: string; text: string }[] {
  return [...writtenItems('train'), ...readWritten('written-topics-train.json')].map((it) => ({ uid: it.uid, text: semanticInput(it.title, it.body) }))
}

/** A fingerprint of the written training items, recorded by the trainer: a test holds the shipped model to the files. */
export function writtenTrainingFingerprint(): string {
  return createHash('sha256').update(JSON.stringify(writtenTraining())).digest('hex').slice(0, 16)
}

/**
 * Prior knowledge for the topic models: every curated vocabulary term (but the sensitive topics') and
 * every taxonomy name, with the tier-1 class it belongs to (`tier1Index`, as tier1IndexIn gives) and its
 * strength (a term's vocabulary weight, halved and capped at 1.5; a name 1). Vocabulary first, in order.
 */
export function vocabularyPrior(tier1Index: (uid: string) => number | undefined): { text: string; label: number; strength: number }[] {
  const out: { text: string; label: number; strength: number }[] = []
  for (const part of VOCABULARY_PARTS) {
    if (part === SENSITIVE) continue
    for (const [uid, list] of Object.entries(part)) {
      const label = tier1Index(uid)
      if (label !== undefined) for (const e of parseEntries(list)) out.push({ text: e.term, label, strength: Math.min(1.5, e.weight / 2) })
    }
  }
  for (const n of allNodes()) {
    const label = tier1Index(n.unique_id)
    if (label !== undefined) out.push({ text: n.name, label, strength: 1 })
  }
  return out
}
