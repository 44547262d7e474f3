/** The events a subscription can ask for (docs/webhooks.md). `webhook.test` goes only to the one tested. */
export const webhookEventTypes = [
  'scrape_job.completed',
  'scrape_job.failed',
  'segment.completed',
  'segment.failed',
  'optimization.applied',
  'optimization.failed',
  'activation.completed',
  'activation.failed',
  'deal.stopped',
  'publisher_report.completed',
  'publisher_report.failed',
  'performance_report.completed',
  'performance_report.failed',
] as const

export type WebhookEventType = (typeof webhookEventTypes)[number]

export const testEventType = 'webhook.test'
