import { createHash, randomBytes } from 'node:crypto'

import { notify, type Queryable } from '../db/db.ts'

/**
 * API keys: `cur_` + 43 base64url characters (256 random bits). Only the SHA-256 hash is stored; the
 * first 12 characters are kept as a visible prefix so an operator can tell keys apart.
 */
export const keyPrefixLength = 12

/** NOTIFY channel on which a revocation tells every API process to forget cached keys. */
export const keysChannel = 'curata_keys'

export function generateKey(): string {
  return `cur_${randomBytes(32).toString('base64url')}`
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

export interface CreatedKey {
  client_id: number
  key_id: number
  api_key: string
  name: string
  /** a production credential: comply_test_controller refuses it (migrations/0021_api_key_live.sql) */
  live: boolean
}

export interface KeyRow {
  id: number
  client_id: number
  name: string
  key_prefix: string
  created_at: Date
  revoked_at: Date | null
  live: boolean
}

/**
 * Creates a client with its first key, or (with clientId) another key for an existing client.
 * `live`: the key is a production credential (its accounts are never sandbox accounts).
 */
export async function createKey(db: Queryable, opts: { name: string; clientId?: number; live?: boolean; now: Date }): Promise<CreatedKey> {
  let clientId = opts.clientId
  let name = opts.name
  if (clientId === undefined) {
    const { rows } = await db.query<{ id: number }>('INSERT INTO clients (name, created_at) VALUES ($1, $2) RETURNING id', [opts.name, opts.now])
    clientId = rows[0]!.id
  } else {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM clients WHERE id = $1', [clientId])
    if (!rows[0]) throw new Error(`client ${clientId} does not exist`)
    name = rows[0].name
  }
  const key = generateKey()
  const live = opts.live === true
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO api_keys (client_id, key_prefix, key_hash, created_at, live) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [clientId, key.slice(0, keyPrefixLength), hashKey(key), opts.now, live],
  )
  return { client_id: clientId, key_id: rows[0]!.id, api_key: key, name, live }
}

export async function listKeys(db: Queryable): Promise<KeyRow[]> {
  const { rows } = await db.query<KeyRow>(
    `SELECT k.id, k.client_id, c.name, k.key_prefix, k.created_at, k.revoked_at, k.live
       FROM api_keys k JOIN clients c ON c.id = k.client_id
      ORDER BY k.id`,
  )
  return rows
}

/** Returns false when no such key exists; revoking twice keeps the first revocation time. */
export async function revokeKey(db: Queryable, keyId: number, now: Date): Promise<boolean> {
  const { rows } = await db.query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING id`, [keyId, now])
  await notify(db, keysChannel, String(keyId))
  return rows.length > 0
}

export interface Principal {
  keyId: number
  clientId: number
}

/** Whether the key is a live (production) credential; an unknown key is not. */
export async function isLiveKey(db: Queryable, keyId: number): Promise<boolean> {
  const { rows } = await db.query<{ live: boolean }>('SELECT live FROM api_keys WHERE id = $1', [keyId])
  return rows[0]?.live === true
}

/** Looks a presented key up by its hash; revoked and unknown keys are both null. */
export async function verifyKey(db: Queryable, key: string): Promise<Principal | null> {
  if (!/^cur_[A-Za-z0-9_-]{43}$/.test(key)) return null
  const { rows } = await db.query<{ id: number; client_id: number }>('SELECT id, client_id FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL', [
    hashKey(key),
  ])
  const row = rows[0]
  return row ? { keyId: row.id, clientId: row.client_id } : null
}
