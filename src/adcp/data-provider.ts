// The domain catalog signals are attributed to (signal_id.data_provider_domain).
const domainPattern = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/

/**
 * ADCP_DATA_PROVIDER_DOMAIN, else the host of PUBLIC_URL, else the host the request came to
 * (without its port), else `localhost`.
 */
export function dataProviderDomain(configured: string | null, publicUrl: string | null, requestHost: string | null): string {
  if (configured) return configured
  for (const candidate of [publicUrl ? safeHost(publicUrl) : null, requestHost?.replace(/:\d+$/, '').toLowerCase() ?? null]) {
    if (candidate && domainPattern.test(candidate)) return candidate
  }
  return 'localhost'
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return null
  }
}
