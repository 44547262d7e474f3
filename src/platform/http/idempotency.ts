import { createHash } from 'node:crypto'

import type { FastifyReply, FastifyRequest } from 'fastify'

import type { Db } from '../db/db.ts'
import { ApiError } from './errors.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Creating POSTs: an Idempotency-Key header makes a retry return the original response. */
    idempotent?: boolean
  }
  interface FastifyRequest {
    idempotency: { key: string; route: string } | null
  }
}

const keyPattern = /^[\x21-\x7e]{1,255}$/
const inProgress = 0

function requestHash(req: FastifyRequest): string {
  return createHash('sha256')
    .update(JSON.stringify(req.body ?? null))
    .digest('hex')
}

/**
 * Idempotency-Key for creating POSTs, per client and route. The first request reserves the key
 * (so a concurrent duplicate gets 409 instead of creating twice), a successful response is stored
 * and replayed byte for byte to every retry with the same body; a retry with a different body is a
 * 409, and a failed first attempt frees the key so the client can try again.
 */
export function idempotency(db: Db) {
  return {
    async preHandler(req: FastifyRequest, reply: FastifyReply): Promise<unknown> {
      req.idempotency = null
      const raw = req.headers['idempotency-key']
      if (!req.routeOptions.config.idempotent || raw === undefined || !req.principal) return undefined
      const key = Array.isArray(raw) ? raw[0]! : raw
      if (!keyPattern.test(key)) {
        throw new ApiError(400, 'invalid_request', 'Idempotency-Key must be 1 to 255 printable ASCII characters')
      }
      const route = `${req.method} ${req.routeOptions.url}`
      const hash = requestHash(req)
      const clientId = req.principal.clientId
      const reserved = await db.query(
        `INSERT INTO idempotency_keys (client_id, route, key, request_hash, status_code, response, created_at)
         VALUES ($1, $2, $3, $4, ${inProgress}, 'null'::jsonb, now())
         ON CONFLICT (client_id, route, key) DO NOTHING RETURNING key`,
        [clientId, route, key, hash],
      )
      if (reserved.rows.length) {
        req.idempotency = { key, route }
        return undefined
      }
      const { rows } = await db.query<{ request_hash: string; status_code: number; response: unknown }>(
        'SELECT request_hash, status_code, response FROM idempotency_keys WHERE client_id = $1 AND route = $2 AND key = $3',
        [clientId, route, key],
      )
      const prior = rows[0]
      if (!prior) throw new ApiError(409, 'conflict', 'a request with this Idempotency-Key is being processed; retry shortly')
      if (prior.request_hash !== hash) {
        throw new ApiError(409, 'conflict', 'this Idempotency-Key was already used with a different request body')
      }
      if (prior.status_code === inProgress) {
        throw new ApiError(409, 'conflict', 'a request with this Idempotency-Key is being processed; retry shortly')
      }
      reply.header('idempotent-replayed', 'true').code(prior.status_code)
      return reply.send(prior.response)
    },

    async onSend(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      const idem = req.idempotency
      if (!idem || !req.principal) return payload
      req.idempotency = null
      const args = [req.principal.clientId, idem.route, idem.key]
      if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
        await db.query(
          `UPDATE idempotency_keys SET status_code = $4, response = $5::jsonb
            WHERE client_id = $1 AND route = $2 AND key = $3`,
          [...args, reply.statusCode, payload],
        )
      } else {
        await db.query('DELETE FROM idempotency_keys WHERE client_id = $1 AND route = $2 AND key = $3', args)
      }
      return payload
    },
  }
}
