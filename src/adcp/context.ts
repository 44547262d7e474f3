import type { ActivationContext } from '../activation/context.ts'
import type { CurationContext } from '../curation/context.ts'
import type { WebhookContext } from '../platform/webhooks/service.ts'

/** The signals agent works over curation (segments, catalogs) and activation (deals); it sends task webhooks. */
export interface AdcpContext extends CurationContext, ActivationContext, WebhookContext {}
