import type { AppContext } from '../platform/context.ts'
import type { SspConnector } from './connectors/connector.ts'

/** What activation code needs: the platform plus the configured SSP connector (SSP_CONNECTOR). */
export interface ActivationContext extends AppContext {
  connector: SspConnector
}
