import { readFileSync } from 'node:fs'

import type { Clock } from '../../platform/clock.ts'
import type { Command } from '../../platform/control-socket.ts'
import type { Queryable } from '../../platform/db/db.ts'
import { addSigningKeys, listSigningKeys, revokeSigningKey } from './store.ts'

export const isSigningKeyCommand = (c: Command) => c.cmd.startsWith('keys.signing.')

/**
 * Request-signing keys as commands (the CLI directly, or over the control socket): register a JWKS
 * for an API key (the JWKS as given, read by the CLI), list, revoke a kid.
 */
export async function runSigningKeyCommand(db: Queryable, clock: Clock, c: Command): Promise<unknown> {
  switch (c.cmd) {
    case 'keys.signing.add': {
      const apiKeyId = Number(c.args.keyId)
      if (!Number.isInteger(apiKeyId) || apiKeyId < 1) throw new Error('key id must be a positive integer')
      const jwks = typeof c.args.jwks === 'string' ? (JSON.parse(c.args.jwks) as unknown) : c.args.jwks
      const revoked = Array.isArray(c.args.revoked) ? c.args.revoked.map(String) : []
      const replayCap = c.args.replayCap === undefined ? undefined : Number(c.args.replayCap)
      return addSigningKeys(db, { apiKeyId, jwks, revoked, ...(replayCap !== undefined ? { replayCap } : {}), now: clock.now() })
    }
    case 'keys.signing.list':
      return listSigningKeys(db)
    case 'keys.signing.revoke': {
      const kid = String(c.args.kid ?? '')
      if (!(await revokeSigningKey(db, kid, clock.now()))) throw new Error(`no signing key ${kid}`)
      return { kid, revoked: true }
    }
    default:
      throw new Error(`unknown command ${c.cmd}`)
  }
}

/** The CLI reads the JWKS file itself, so a command over the socket carries the JSON. */
export const readJwks = (path: string): string => readFileSync(path, 'utf8')
