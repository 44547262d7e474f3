// AI assistants whose users click through to publishers: a human load whose referrer (or
// utm_source, which ChatGPT adds to the links it shows) names one of these hosts is an AI referral.
// Why these hosts: docs/pixel.md, "`ai_referrals`" (after Cloudflare's AI referrer analysis).

export interface AiReferrer {
  source: string
  /** Matches the agents' operator names (agents.json), for the crawl-to-refer ratio. */
  operator: string
}

const HOSTS: Record<string, AiReferrer> = {
  'chatgpt.com': { source: 'ChatGPT', operator: 'OpenAI' },
  'chat.openai.com': { source: 'ChatGPT', operator: 'OpenAI' },
  'perplexity.ai': { source: 'Perplexity', operator: 'Perplexity' },
  'claude.ai': { source: 'Claude', operator: 'Anthropic' },
  'gemini.google.com': { source: 'Gemini', operator: 'Google' },
  'bard.google.com': { source: 'Gemini', operator: 'Google' },
  'copilot.microsoft.com': { source: 'Copilot', operator: 'Microsoft' },
  'copilot.cloud.microsoft': { source: 'Copilot', operator: 'Microsoft' },
  'chat.deepseek.com': { source: 'DeepSeek', operator: 'DeepSeek' },
  'chat.mistral.ai': { source: 'Le Chat', operator: 'Mistral AI' },
  'meta.ai': { source: 'Meta AI', operator: 'Meta' },
  'grok.com': { source: 'Grok', operator: 'xAI' },
  'you.com': { source: 'You.com', operator: 'You.com' },
  'poe.com': { source: 'Poe', operator: 'Quora' },
}

export const AI_REFERRER_OPERATORS: Record<string, string> = Object.fromEntries(Object.values(HOSTS).map((r) => [r.source, r.operator]))

/** The assistant behind a referrer host or utm_source value ("www." and ports ignored), or null. */
export function aiReferrer(hostOrSource: string | null | undefined): AiReferrer | null {
  if (!hostOrSource) return null
  let h = hostOrSource.toLowerCase()
  if (h.startsWith('www.')) h = h.slice(4)
  const colon = h.indexOf(':')
  if (colon >= 0) h = h.slice(0, colon)
  return HOSTS[h] ?? null
}
