import type { ActivationContext } from '../activation/context.ts'
import type { CurationContext } from '../curation/context.ts'

/** The signals agent works over curation (segments, catalogs) and activation (deals). */
export interface AdcpContext extends CurationContext, ActivationContext {}
