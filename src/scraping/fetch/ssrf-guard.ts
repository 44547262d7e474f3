// The SSRF guard moved to the platform (webhook deliveries use it too); this path keeps the
// scraper's imports and tests working.
export * from '../../platform/net/ssrf-guard.ts'
