// Shapes of the /v1 records the console reads (the OpenAPI document at /v1/openapi.json is the reference).
// Why a URL is in a segment, and how a prompt was read, are the server's own types, as the API writes
// them (docs/curation.md, "Reading the URLs", "Trying a prompt").
import type { UrlReasons } from '../../src/curation/quality/filters.ts'
import type { PromptReading } from '../../src/curation/segments/schemas.ts'

export type { PromptReading, UrlReasons }
export type Interpretation = PromptReading['interpretation']
export type NamedCategory = Interpretation['categories'][number]

export interface Problem {
  code: string
  message: string
  url?: string
  index?: number
  reason?: string
}

export interface Segment {
  id: number
  name: string | null
  prompt: string | null
  taxonomy_id: number | null
  level1_name: string | null
  level2_name: string | null
  level3_name: string | null
  example_urls: string[]
  extra_hops_count: number | null
  block_tlds: string[] | null
  block_keywords: string[] | null
  status: 'pending' | 'processing' | 'complete'
  url_count: number | null
  created_date: string
  processed_date: string | null
  processing_errors: Problem[] | null
  processing_warnings: Problem[] | null
  last_updated_date: string | null
  /** how the prompt was read; null without a prompt */
  interpretation?: Interpretation | null
}

export interface SegmentUrl {
  rank: number
  url: string
  tld: string
  score: number
  taxonomy_id: number | null
  level1_name: string | null
  level2_name: string | null
  level3_name: string | null
  source: string
  reasons?: UrlReasons
}

export interface UrlPage {
  segment_id: number
  status: string
  total: number
  limit: number
  offset: number
  urls: SegmentUrl[]
}

export interface ExclusionPage {
  segment_id: number
  total: number
  by_reason: Record<string, number>
  exclusions: { url: string; tld: string; reason: string; score: number | null; detail: Record<string, unknown> }[]
}

export interface Optimization {
  id: number
  segment_id: number
  expand: { urls: string[]; domains: string[] } | null
  block: { urls: string[]; domains: string[]; keywords: string[] } | null
  created_date: string
  applied_date: string | null
  outcome: 'pending' | 'applied' | 'failed'
  result: {
    removed: number
    added: number
    url_count: number
    expand_seeds_indexed?: number
    expand_seeds_unusable?: { url: string; errors: string[] }[]
  } | null
  failure: { code: string; message: string } | null
}

export interface Dsp {
  slug: string
  name: string
  aliases: string[]
  deprecated?: string
}

export interface Activation {
  id: number
  segment_ids: number[]
  dsp: string
  buyer_seat: string
  status: 'pending' | 'processing' | 'complete' | 'failed'
  deal_id: string | null
  ttl_hours: number | null
  start_date: string | null
  end_date: string | null
  geo: string[] | null
  formats: string[] | null
  devices: string[] | null
  kpis: { metric: string; target: number }[] | null
  budget: { amount: number; currency: string } | null
  created_date: string
  processed_date: string | null
  connector: string
  sandbox: boolean
  failure_reason: string | null
  estimated_ready_date: string | null
  deal_state: 'live' | 'ended' | 'shut_down' | null
  deal_state_reason: string | null
  deal_last_used_date: string | null
  targeting: { url_count: number; domain_count: number; excluded_domains: { domain: string; reason: string }[] } | null
}

export interface ScrapeResult {
  url: string
  tld: string
  errors: string[]
  content?: { title: string; language: string; word_count: number } | null
  [k: string]: unknown
}

export interface ScrapeJob {
  id: number
  status: string
  url_count: number
  created_date: string
  processed_date: string | null
  results: ScrapeResult[] | null
  submitted_count: number
  invalid_url_count: number
  progress: { done: number; total: number }
  failure_reason: string | null
  invalid_urls?: { index: number; url: string; reason: string }[]
}

export interface PixelCampaign {
  id: number
  name: string
  use_case: string
  description: string | null
  created_date: string
  last_updated_date: string
}

export interface PixelTag {
  campaign_id: number
  base_url: string
  image_tag: string
  javascript_tag: string
  impression_urls: Record<string, string>
  parameters: { name: string; meaning: string }[]
}

export interface PublisherReport {
  id: number
  status: 'pending' | 'processing' | 'complete' | 'failed'
  campaign_id: number
  start_date: string
  end_date: string
  dimensions: string[]
  created_date: string
  processed_date: string | null
  summary: {
    total_loads: number
    human_loads: number
    non_human_loads: number
    non_human_pct: number
    llm_agent_pct: number
    search_bot_pct: number
    scraper_pct: number
    high_risk_bot_count: number
    high_risk_loads: number
  } | null
  agents: { agent: string; type: string; loads: number; pct_of_non_human: number }[] | null
  hot_spots: { url: string; bot_pct: number; loads: number; dominant_agent: string }[] | null
  data: { date?: string; agent?: string | null; agent_type?: string; url?: string; loads: number }[] | null
  data_truncated: boolean
  ai_referrals: {
    loads: number
    pct_of_human: number
    sources: { source: string; operator: string; loads: number; pct_of_ai_referrals: number; crawls: number; crawl_to_refer: number | null }[]
    top_urls: { url: string; loads: number }[]
  } | null
  failure_reason: string | null
}

export interface Metrics {
  impressions: number
  non_human_impressions: number
  clicks: number
  ctr: number
  priced_impressions: number
  spend: number
  ecpm: number
}

export interface SegmentReport {
  id: number
  status: 'pending' | 'processing' | 'complete' | 'failed'
  segment_ids: number[]
  start_date: string
  end_date: string
  dimensions: string[]
  created_date: string
  processed_date: string | null
  currency: string | null
  summary: Metrics | null
  deals: (Metrics & { deal_id: string; dsp: string })[] | null
  domains: (Metrics & { domain: string | null })[] | null
  data: (Metrics & { date?: string; domain?: string | null })[] | null
  warnings: string[]
  failure_reason: string | null
}
