// Turns text fields into keyword evidence per taxonomy node, plus a term-frequency profile.
import { featureCounts } from '../topics/features.ts'
import { semanticTopicLogits } from '../topics/semantic-topics.ts'
import { themesOf } from '../topics/theme-model.ts'
import { logitsOfCounts } from '../topics/topic-model.ts'
import { type KeywordModel, model, modelLanguage } from './model.ts'
import { contentTokens, isGeneric, urlTokens } from './text.ts'

export interface TextFields {
  /** the text; a list's items are read apart, with no word pair or vocabulary phrase across two of them */
  body: string | readonly string[]
  title?: string
  description?: string
  url?: string
  /** ISO 639-1 code of the page: picks the model (model.ts); omitted = English. */
  language?: string
  /** the page's sentence vector, when it has one (src/content/semantic/): its topics join the learned model's */
  semantic?: Int8Array | null
}

export interface Analysis {
  /** content tokens read (title + description + body) */
  tokenCount: number
  /** distinct vocabulary terms found */
  matchedTerms: number
  /** evidence per node, summed over the node's subtree (tier-1 nodes hold their whole branch) */
  nodeScores: Map<number, number>
  /** sub-linear term weights of every content token, for term similarity */
  terms: Map<string, number>
  /** the learned topic model's raw tier-1 scores (src/content/topics), in model class order, with the sentence vector's when given */
  topicLogits: Float64Array
  /** how many of the text's words and word pairs the learned model knows */
  topicFeatures: number
  /**
   * false for a page read with another language's lists (vocab/european.ts): the learned model is
   * English and sees only the words such a page shares with English, so its scores are not used
   */
  english: boolean
  /** the likeliest themes (theme-model.ts) as [theme, probability]; read with the term profile, for English text only */
  themes: [number, number][]
}

// A word in the title says more about the page than one more mention in the body.
const TITLE_BONUS = 1.5
const DESCRIPTION_BONUS = 0.75
const URL_BONUS = 1
// BM25-style saturation of body counts: a typical article has ~500 content tokens; in a much longer
// text, a single passing mention weighs less, and the title relatively more.
const K1 = 1.2
const B = 0.75
const TYPICAL_LENGTH = 500

interface Occurrence {
  body: number
  title: boolean
  description: boolean
  url: boolean
}

/** Greedy longest match of vocabulary terms (phrases before words), so "white house" never also counts as "house". */
function eachTerm(tokens: readonly string[], m: KeywordModel, visit: (key: string) => void): void {
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i] ?? ''
    let matched = 0
    if (m.phraseStarts.has(first)) {
      for (let len = Math.min(m.maxPhraseLength, tokens.length - i); len >= 2 && !matched; len--) {
        const key = tokens.slice(i, i + len).join(' ')
        if (m.postings.has(key)) {
          visit(key)
          matched = len
        }
      }
    }
    if (matched) i += matched - 1
    else if (m.postings.has(first)) visit(first)
  }
}

function strengthFor(bodyLength: number): (o: Occurrence) => number {
  const norm = K1 * (1 - B + (B * bodyLength) / TYPICAL_LENGTH)
  return (o) =>
    (o.body > 0 ? ((K1 + 1) * o.body) / (o.body + norm) : 0) + (o.title ? TITLE_BONUS : 0) + (o.description ? DESCRIPTION_BONUS : 0) + (o.url ? URL_BONUS : 0)
}

/** Where each item after the first starts in the items laid end to end. */
function itemStarts(items: readonly (readonly string[])[]): Set<number> {
  const starts = new Set<number>()
  for (let i = 0, at = 0; i < items.length - 1; i++) starts.add((at += (items[i] as readonly string[]).length))
  return starts
}

/** `withTerms: false` skips the term profile, which only embeddings need. */
export function analyze(fields: TextFields, withTerms = true): Analysis {
  const m = model(fields.language)
  const items = typeof fields.body === 'string' ? [contentTokens(fields.body)] : fields.body.map(contentTokens)
  const body = items.length === 1 ? (items[0] as string[]) : items.flat()
  const bodyBreaks = items.length === 1 ? undefined : itemStarts(items)
  const title = contentTokens(fields.title ?? '')
  const description = contentTokens(fields.description ?? '')
  const url = urlTokens(fields.url)

  const occ = new Map<string, Occurrence>()
  const get = (key: string): Occurrence => {
    let o = occ.get(key)
    if (!o) occ.set(key, (o = { body: 0, title: false, description: false, url: false }))
    return o
  }
  for (const item of items) eachTerm(item, m, (k) => get(k).body++)
  eachTerm(title, m, (k) => (get(k).title = true))
  eachTerm(description, m, (k) => (get(k).description = true))
  eachTerm(url, m, (k) => (get(k).url = true))

  // Counted once for both learned models (topic and theme), which share their features.
  const counts = featureCounts({ title, description, body, bodyBreaks })
  const topics = logitsOfCounts(counts)
  const english = modelLanguage(fields.language) === 'en'
  if (english && fields.semantic) {
    const extra = semanticTopicLogits(fields.semantic)
    for (let k = 0; k < extra.length; k++) topics.logits[k] = (topics.logits[k] as number) + (extra[k] as number)
  }
  const strength = strengthFor(body.length)
  const nodeScores = new Map<number, number>()
  for (const [key, o] of occ) {
    const p = m.postings.get(key)
    if (!p) continue
    const s = strength(o)
    for (let j = 0; j < p.ids.length; j++) {
      const id = p.ids[j] as number
      nodeScores.set(id, (nodeScores.get(id) ?? 0) + s * (p.weights[j] as number))
    }
  }

  const terms = new Map<string, number>()
  const base = {
    tokenCount: body.length + title.length + description.length,
    matchedTerms: occ.size,
    nodeScores,
    terms,
    topicLogits: topics.logits,
    topicFeatures: topics.known,
    english,
    themes: [] as [number, number][],
  }
  if (!withTerms) return base
  if (base.english) base.themes = themesOf(counts)
  const tf = new Map<string, Occurrence>()
  const tfGet = (t: string): Occurrence => {
    let o = tf.get(t)
    if (!o) tf.set(t, (o = { body: 0, title: false, description: false, url: false }))
    return o
  }
  for (const t of body) if (!isGeneric(t)) tfGet(t).body++
  for (const t of title) if (!isGeneric(t)) tfGet(t).title = true
  for (const t of description) if (!isGeneric(t)) tfGet(t).description = true
  for (const [t, o] of tf) terms.set(t, strength(o))

  return base
}
