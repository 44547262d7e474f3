/**
 * The events as OpenAPI 3.1 `webhooks`: what a receiver gets, one entry per event type. The
 * resource in `data` is the one the named GET returns (its schema is that route's).
 */
import type { OpenAPIV3_1 } from 'openapi-types'

import { testEventType, webhookEventTypes } from './events.ts'

const resourceOf: Record<string, string> = {
  scrape_job: 'GET /v1/scraping/jobs/{id} (results null; results_url links the JSON Lines export)',
  segment: 'GET /v1/curation/segment-requests/{id}',
  optimization: 'GET /v1/curation/optimizations/{id}',
  activation: 'GET /v1/curation/activations/{id}',
  deal: 'GET /v1/curation/activations/{id} (deal_state ended or shut_down)',
  publisher_report: 'GET /v1/pixel/reports/publisher/{id}',
  performance_report: 'GET /v1/curation/reports/{id}',
  webhook: 'the subscription tested, and a message',
}

const header = (name: string, description: string): OpenAPIV3_1.ParameterObject => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
})

export function webhookOpenApi(): Record<string, OpenAPIV3_1.PathItemObject> {
  const out: Record<string, OpenAPIV3_1.PathItemObject> = {}
  for (const type of [...webhookEventTypes, testEventType]) {
    const resource = resourceOf[type.split('.')[0]!]!
    out[type] = {
      post: {
        summary: `${type}: the resource as ${resource}`,
        description: 'Signed per Standard Webhooks; retried with backoff for about 26 h under the same webhook-id. See docs/webhooks.md.',
        parameters: [
          header('webhook-id', 'the message id (msg_…): the same on every retry and redelivery'),
          header('webhook-timestamp', 'Unix seconds of this attempt'),
          header('webhook-signature', 'v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" under the secret>'),
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['type', 'timestamp', 'data'],
                properties: {
                  type: { type: 'string', const: type },
                  timestamp: { type: 'string', format: 'date-time' },
                  data: { type: 'object', description: resource },
                },
              },
            },
          },
        },
        responses: { '2XX': { description: 'received; anything else (or no answer within WEBHOOK_TIMEOUT_MS) is retried' } },
      },
    }
  }
  return out
}
