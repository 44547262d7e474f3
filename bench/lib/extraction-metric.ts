// The scrapinghub article-extraction-benchmark metric: 4-token shingles (tokens = Unicode \w+ runs),
// per-page TP/FP/FN normalised to sum to 1; precision is averaged over pages that predicted something,
// recall over pages whose truth has text, and F1 is taken from those two means.

const TOKEN = /[\p{L}\p{N}_]+/gu

function shingles(text: string, n = 4): Map<string, number> {
  const tokens = text.match(TOKEN) ?? []
  const counts = new Map<string, number>()
  const last = Math.max(1, tokens.length - n + 1)
  for (let i = 0; i < last; i++) {
    const shingle = tokens.slice(i, i + n).join(' ')
    if (shingle !== '') counts.set(shingle, (counts.get(shingle) ?? 0) + 1)
  }
  return counts
}

export interface PageScore {
  tp: number
  fp: number
  fn: number
}

export function scorePage(truth: string, predicted: string): PageScore {
  const t = shingles(truth)
  const p = shingles(predicted)
  let tp = 0
  let fp = 0
  let fn = 0
  for (const [key, tc] of t) {
    const pc = p.get(key) ?? 0
    tp += Math.min(tc, pc)
    fn += Math.max(0, tc - pc)
  }
  for (const [key, pc] of p) fp += Math.max(0, pc - (t.get(key) ?? 0))
  const sum = tp + fp + fn
  return sum > 0 ? { tp: tp / sum, fp: fp / sum, fn: fn / sum } : { tp: 0, fp: 0, fn: 0 }
}

export interface Quality {
  precision: number
  recall: number
  f1: number
  pages: number
}

export function aggregate(scores: PageScore[]): Quality {
  const precisions = scores.filter((s) => s.tp + s.fp > 0).map((s) => s.tp / (s.tp + s.fp))
  const recalls = scores.filter((s) => s.tp + s.fn > 0).map((s) => s.tp / (s.tp + s.fn))
  const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length)
  const precision = mean(precisions)
  const recall = mean(recalls)
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
  return { precision, recall, f1, pages: scores.length }
}

export function pageF1(s: PageScore): number {
  const p = s.tp + s.fp > 0 ? s.tp / (s.tp + s.fp) : 0
  const r = s.tp + s.fn > 0 ? s.tp / (s.tp + s.fn) : 0
  return p + r > 0 ? (2 * p * r) / (p + r) : 0
}
