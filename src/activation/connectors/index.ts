import type { AppContext } from '../../platform/context.ts'
import type { SspConnector } from './connector.ts'
import { createSandboxConnector } from './sandbox.ts'

const connectors = new WeakMap<AppContext, SspConnector>()

/** The configured SSP connector of this process (SSP_CONNECTOR; `sandbox` is the one built in). */
export function connectorFor(ctx: AppContext): SspConnector {
  let c = connectors.get(ctx)
  if (!c) {
    const a = ctx.config.activation
    c = createSandboxConnector(ctx.db, {
      knownConnectionSeconds: a.sandboxKnownConnectionSeconds,
      newConnectionSeconds: a.sandboxNewConnectionSeconds,
    })
    connectors.set(ctx, c)
  }
  return c
}
