/**
 * ads.txt 1.1 parser (IAB Tech Lab, April 2022). Lenient where the spec asks consumers to be
 * (spaces around fields, case of DIRECT/RESELLER, CR/LF/CRLF, a trailing empty field), strict
 * where leniency would invent data: a line that is neither a record nor a variable is skipped
 * and counted in `invalid_lines`.
 *
 * Record: `<ad system domain>, <account id>, <DIRECT|RESELLER>[, <certification authority id>]`.
 * Variable: `NAME=value`. `#` starts a comment anywhere on a line.
 */

export type Relationship = 'DIRECT' | 'RESELLER'

export interface AdsTxtEntry {
  /** Advertising system domain, lower-cased. */
  domain: string
  /** Publisher account id as written (case matters to some exchanges). */
  account_id: string
  relationship: Relationship
  /** TAG-ID or other certification authority id; null when absent. */
  certification_id: string | null
}

export interface ManagerDomain {
  domain: string
  /** ISO 3166-1 alpha-2, upper-case; null for the global default. */
  country: string | null
}

export interface AdsTxtVariables {
  /** OWNERDOMAIN; the first declaration wins. */
  owner_domain: string | null
  /** MANAGERDOMAIN; one per country, the first for a country wins. */
  manager_domains: ManagerDomain[]
  contacts: string[]
  /** SUBDOMAIN: subdomains of this root that publish their own ads.txt. */
  subdomains: string[]
  inventory_partner_domains: string[]
  /** Any other NAME=value (e.g. draft contentproducerdomain), name lower-cased. */
  other: { name: string; value: string }[]
}

export interface ParsedAdsTxt {
  entries: AdsTxtEntry[]
  variables: AdsTxtVariables
  /** Lines with content that is neither a valid record nor a valid variable. */
  invalid_lines: number
  /** The file holds the spec's "authorizes no one" placeholder record (not listed in `entries`). */
  placeholder: boolean
}

// Host names as they appear in real files, underscores included (the IAB fixtures use green_ssp.com).
const HOST = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))+$/
const VARIABLE = /^([a-z][a-z0-9_-]*)\s*=\s*(.*)$/i
const NO_WHITESPACE = /^\S+$/

function host(value: string): string | null {
  const v = value.trim().toLowerCase()
  return HOST.test(v) ? v : null
}

export function emptyVariables(): AdsTxtVariables {
  return { owner_domain: null, manager_domains: [], contacts: [], subdomains: [], inventory_partner_domains: [], other: [] }
}

/** Records a variable; false when its value is malformed. */
function addVariable(vars: AdsTxtVariables, rawName: string, value: string): boolean {
  const name = rawName.toLowerCase()
  if (!value) return false
  switch (name) {
    case 'ownerdomain': {
      const d = host(value)
      if (d && vars.owner_domain === null) vars.owner_domain = d
      return d !== null
    }
    case 'managerdomain': {
      const [domainPart = '', countryPart, ...rest] = value.split(',').map((p) => p.trim())
      const d = host(domainPart)
      const country = countryPart ? countryPart.toUpperCase() : null
      if (!d || rest.length > 0 || (country !== null && !/^[A-Z]{2}$/.test(country))) return false
      if (!vars.manager_domains.some((m) => m.country === country)) vars.manager_domains.push({ domain: d, country })
      return true
    }
    case 'subdomain':
    case 'inventorypartnerdomain': {
      const d = host(value)
      if (!d) return false
      const list = name === 'subdomain' ? vars.subdomains : vars.inventory_partner_domains
      if (!list.includes(d)) list.push(d)
      return true
    }
    case 'contact':
      vars.contacts.push(value)
      return true
    default:
      vars.other.push({ name, value })
      return true
  }
}

function parseRecord(content: string): AdsTxtEntry | null {
  const fields = content.split(',').map((f) => f.trim())
  // Fields past the fourth are ignored, like the IAB reference crawler does.
  const [rawDomain = '', account = '', rawRelationship = '', rawCert = ''] = fields
  const domain = host(rawDomain)
  const relationship = rawRelationship.toUpperCase()
  if (!domain || !NO_WHITESPACE.test(account) || (relationship !== 'DIRECT' && relationship !== 'RESELLER')) return null
  // Field 4 ends at whitespace (stray notes follow it in real files) and at `;` (extension data).
  const cert = (rawCert.split(/[\s;]/)[0] ?? '').trim()
  return { domain, account_id: account, relationship, certification_id: cert || null }
}

const isPlaceholder = (e: AdsTxtEntry): boolean => e.domain === 'placeholder.example.com' && e.account_id.toLowerCase() === 'placeholder'

export function parseAdsTxt(text: string): ParsedAdsTxt {
  const entries: AdsTxtEntry[] = []
  const variables = emptyVariables()
  let invalid = 0
  let placeholder = false
  for (const line of text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const content = (line.split('#')[0] ?? '').trim()
    if (!content) continue
    const variable = VARIABLE.exec(content)
    if (variable) {
      if (!addVariable(variables, variable[1] ?? '', (variable[2] ?? '').trim())) invalid++
      continue
    }
    const entry = parseRecord(content)
    if (!entry) invalid++
    else if (isPlaceholder(entry)) placeholder = true
    else entries.push(entry)
  }
  return { entries, variables, invalid_lines: invalid, placeholder }
}
