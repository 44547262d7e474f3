import type { Clock } from '../clock.ts'
import type { Command } from '../control-socket.ts'
import type { Queryable } from '../db/db.ts'
import { createKey, listKeys, revokeKey } from './keys.ts'

/** Key management as commands: the same code serves the CLI directly and over the control socket. */
export async function runKeyCommand(db: Queryable, clock: Clock, c: Command): Promise<unknown> {
  switch (c.cmd) {
    case 'keys.create': {
      const name = String(c.args.name ?? '').trim()
      if (!name) throw new Error('a client name is required')
      const clientId = c.args.clientId === undefined ? undefined : Number(c.args.clientId)
      return createKey(db, { name, ...(clientId !== undefined ? { clientId } : {}), live: c.args.live === true, now: clock.now() })
    }
    case 'keys.list':
      return (await listKeys(db)).map((k) => ({
        ...k,
        created_at: k.created_at.toISOString(),
        revoked_at: k.revoked_at?.toISOString() ?? null,
      }))
    case 'keys.revoke': {
      const id = Number(c.args.id)
      if (!Number.isInteger(id) || id < 1) throw new Error('key id must be a positive integer')
      if (!(await revokeKey(db, id, clock.now()))) throw new Error(`no key with id ${id}`)
      return { id, revoked: true }
    }
    default:
      throw new Error(`unknown command ${c.cmd}`)
  }
}
