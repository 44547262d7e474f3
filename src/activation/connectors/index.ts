import type { Config } from '../../platform/config.ts'
import type { Queryable } from '../../platform/db/db.ts'
import type { SspConnector } from './connector.ts'
import { createSandboxConnector } from './sandbox.ts'

/** The SSP connector SSP_CONNECTOR names (`sandbox` is the one built in; docs/activation.md). */
export function createConnector(db: Queryable, config: Config['activation']): SspConnector {
  switch (config.connector) {
    case 'sandbox':
      return createSandboxConnector(db, {
        knownConnectionSeconds: config.sandboxKnownConnectionSeconds,
        newConnectionSeconds: config.sandboxNewConnectionSeconds,
      })
  }
}
