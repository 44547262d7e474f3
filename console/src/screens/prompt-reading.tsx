import { Fragment } from 'preact'

import type { Interpretation, NamedCategory } from '../types.ts'
import { fmt } from '../ui/common.tsx'

const named = (cs: NamedCategory[]) => cs.map((c) => `${c.name} ${fmt.pct(c.weight, 0)}`).join(', ')

/**
 * How the API read the segment's prompt (the record's `interpretation`, docs/curation.md): the
 * topics and words it searches, and what it set aside and why, so a buyer can reword a prompt that
 * was read wrong instead of guessing from the URLs.
 */
export function PromptReading(props: { reading: Interpretation }) {
  const r = props.reading
  const rows: [string, string][] = [
    ['Topics', r.categories.length ? named(r.categories) : 'none: pages are found by the words alone'],
    ['Words searched', r.terms.join(', ') || '—'],
  ]
  if (r.expansions.length) rows.push(['Related words (learned from the index)', r.expansions.join(', ')])
  if (r.audience.length) rows.push(['Audience words (content cannot target them)', r.audience.join(', ')])
  if (r.geo.length) rows.push(['Countries (offered to activation as geo)', r.geo.join(', ')])
  if (r.blocks.categories.length) rows.push(['Topics excluded', named(r.blocks.categories)])
  if (r.blocks.terms.length) rows.push(['Words excluded', r.blocks.terms.join(', ')])
  if (r.ignored.length) rows.push(['Ignored', r.ignored.map((i) => `${i.word} (${i.why})`).join(', ')])
  return (
    <section class="panel" aria-labelledby="prompt-reading" data-testid="prompt-reading">
      <h2 id="prompt-reading">How the prompt was read</h2>
      <dl class="facts">
        {rows.map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </Fragment>
        ))}
      </dl>
    </section>
  )
}
