import type { ErrorDetail } from '../platform/http/errors.ts'
import { unprocessable } from '../platform/http/errors.ts'
import { isCountry, isCurrency, notADsp, resolveDsp } from './registry.ts'
import type { CreateActivationBody } from './schemas.ts'

const fractionMetrics = new Set(['ctr', 'conversion', 'viewability', 'vcr'])

function realDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s
}

/**
 * The rules of spec 4.2 that a schema cannot express. Returns the request normalized (DSP slug,
 * upper-case codes); throws 422 naming every field that breaks a rule.
 */
export function validateActivation(body: CreateActivationBody, today: string): CreateActivationBody {
  const problems: ErrorDetail[] = []
  const dsp = resolveDsp(body.dsp)
  if (!dsp) {
    const not = notADsp(body.dsp)
    const what = not ? `"${body.dsp}" (${not.name}) is not a DSP: ${not.reason}; name the DSP that buys through it` : `unknown DSP "${body.dsp}"`
    problems.push({ path: 'body.dsp', message: `${what}; the supported DSPs and their aliases are listed at GET /v1/curation/dsps` })
  }
  const geo = body.geo?.map((g) => g.toUpperCase())
  geo?.forEach((g, i) => {
    if (!isCountry(g)) problems.push({ path: `body.geo.${i}`, message: `"${body.geo![i]}" is not an ISO 3166-1 alpha-2 country code` })
  })
  if (geo && new Set(geo).size !== geo.length) problems.push({ path: 'body.geo', message: 'country codes must not repeat' })

  for (const [field, value] of [
    ['start_date', body.start_date],
    ['end_date', body.end_date],
  ] as const) {
    if (value === undefined) continue
    if (!realDate(value)) problems.push({ path: `body.${field}`, message: `${value} is not a calendar date` })
    else if (value < today) problems.push({ path: `body.${field}`, message: `${value} is in the past (today is ${today} UTC)` })
  }
  if (body.start_date && body.end_date && body.end_date < body.start_date) {
    problems.push({ path: 'body.end_date', message: 'end_date must be on or after start_date' })
  }

  const seen = new Set<string>()
  body.kpis?.forEach((k, i) => {
    if (seen.has(k.metric)) problems.push({ path: `body.kpis.${i}.metric`, message: `${k.metric} is given twice` })
    seen.add(k.metric)
    if (!Number.isFinite(k.target)) problems.push({ path: `body.kpis.${i}.target`, message: 'target must be a finite number' })
    else if (fractionMetrics.has(k.metric) && (k.target < 0 || k.target > 1)) {
      problems.push({ path: `body.kpis.${i}.target`, message: `${k.metric} target is a fraction between 0 and 1` })
    } else if (!fractionMetrics.has(k.metric) && k.target <= 0) {
      problems.push({ path: `body.kpis.${i}.target`, message: `${k.metric} target must be positive` })
    }
  })

  const currency = body.budget?.currency.toUpperCase()
  if (currency && !isCurrency(currency)) {
    problems.push({ path: 'body.budget.currency', message: `"${body.budget!.currency}" is not an ISO 4217 currency code` })
  }

  if (problems.length) throw unprocessable(problems.map((p) => p.message).join('; '), problems)
  return {
    ...body,
    dsp: dsp!.slug,
    ...(geo ? { geo } : {}),
    ...(body.budget ? { budget: { amount: body.budget.amount, currency: currency! } } : {}),
  }
}
