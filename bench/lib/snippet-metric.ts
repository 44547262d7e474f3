// The trafilatura evaluation metric (upstream tests/eval_common.py): output and snippets are
// whitespace-normalised, then a case-sensitive substring test. A "with" snippet found is a true positive,
// missing a false negative; a "without" snippet found is a false positive, absent a true negative. Counts
// are summed over pages before precision, recall and F1 are taken.

export interface SnippetCounts {
  tp: number
  fn: number
  fp: number
  tn: number
}

const normalize = (s: string): string => s.replace(/\s+/gu, ' ').trim()

export function scoreSnippets(output: string, withSnippets: string[], withoutSnippets: string[]): SnippetCounts {
  const text = normalize(output)
  const c: SnippetCounts = { tp: 0, fn: 0, fp: 0, tn: 0 }
  for (const s of withSnippets) {
    if (text !== '' && text.includes(normalize(s))) c.tp++
    else c.fn++
  }
  for (const s of withoutSnippets) {
    if (text !== '' && text.includes(normalize(s))) c.fp++
    else c.tn++
  }
  return c
}

export interface SnippetQuality {
  precision: number
  recall: number
  f1: number
  accuracy: number
  pages: number
}

export function snippetQuality(counts: SnippetCounts[]): SnippetQuality {
  const t = counts.reduce((a, c) => ({ tp: a.tp + c.tp, fn: a.fn + c.fn, fp: a.fp + c.fp, tn: a.tn + c.tn }), { tp: 0, fn: 0, fp: 0, tn: 0 })
  const all = t.tp + t.fn + t.fp + t.tn
  return {
    precision: t.tp + t.fp > 0 ? t.tp / (t.tp + t.fp) : 0,
    recall: t.tp + t.fn > 0 ? t.tp / (t.tp + t.fn) : 0,
    f1: 2 * t.tp + t.fp + t.fn > 0 ? (2 * t.tp) / (2 * t.tp + t.fp + t.fn) : 0,
    accuracy: all > 0 ? (t.tp + t.tn) / all : 0,
    pages: counts.length,
  }
}
