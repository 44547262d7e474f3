import { randomBytes } from 'node:crypto'

import type { Queryable } from '../../platform/db/db.ts'
import type { DealRequest, DealTargeting, IssuedDeal, SspConnector } from './connector.ts'
import { ConnectorError } from './connector.ts'

export interface SandboxLatency {
  /** Seconds until a deal on a DSP seat the client has used before is live (production: hours). */
  knownConnectionSeconds: number
  /** Seconds for the first deal on a new DSP seat connection (production: up to 2 days). */
  newConnectionSeconds: number
}

/** Hours an unused deal stays live (spec part 3: "unused for more than about 2 weeks"). */
export const dealTtlHours = 14 * 24

const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'

/** `CUR-SBX-` + 16 characters: [A-Za-z0-9-], 24 characters, never starting with 0. */
export function sandboxDealId(): string {
  const bytes = randomBytes(16)
  let id = ''
  for (const b of bytes) id += alphabet[b % alphabet.length]
  return `CUR-SBX-${id}`
}

/**
 * The sandbox SSP: issues real-format Deal IDs and keeps its own book of deals in `sandbox_deals`,
 * with a latency model that tells a known DSP seat connection from a new one. It never reaches a
 * real SSP, and says so on every activation. It holds at most one deal per activation, as the
 * SspConnector contract asks. For integration testing (docs/activation.md "Sandbox test seats"):
 * buyer seats starting with `sandbox-reject` are refused permanently, seats starting with
 * `sandbox-flaky` fail with a retryable error on their first two attempts, and seats starting with
 * `sandbox-unavailable` fail with a retryable error on every attempt.
 */
export function createSandboxConnector(db: Queryable, latency: SandboxLatency): SspConnector {
  const flakyAttempts = new Map<number, number>()
  const dealOf = async (activationId: number) =>
    (await db.query<{ deal_id: string; created_at: Date }>('SELECT deal_id, created_at FROM sandbox_deals WHERE activation_id = $1', [activationId])).rows[0]
  return {
    name: 'sandbox',
    sandbox: true,
    async createDeal(req: DealRequest, now: Date): Promise<IssuedDeal> {
      if (req.buyerSeat.startsWith('sandbox-reject')) {
        throw new ConnectorError(`sandbox SSP rejected the deal: buyer seat ${req.buyerSeat} is not known on ${req.dsp}`, false)
      }
      if (req.buyerSeat.startsWith('sandbox-unavailable')) {
        throw new ConnectorError('sandbox SSP is temporarily unavailable (HTTP 503)', true)
      }
      if (req.buyerSeat.startsWith('sandbox-flaky')) {
        const n = (flakyAttempts.get(req.activationId) ?? 0) + 1
        flakyAttempts.set(req.activationId, n)
        if (n <= 2) throw new ConnectorError('sandbox SSP is temporarily unavailable (HTTP 503)', true)
      }
      const seconds = req.knownConnection ? latency.knownConnectionSeconds : latency.newConnectionSeconds
      // The SSP's sync latency runs from when it first created the deal, also for a repeated call.
      const issued = (r: { deal_id: string; created_at: Date }): IssuedDeal => ({
        dealId: r.deal_id,
        readyAt: new Date(r.created_at.getTime() + seconds * 1000),
        ttlHours: dealTtlHours,
      })
      const existing = await dealOf(req.activationId)
      if (existing) return issued(existing)
      const { rows } = await db.query<{ deal_id: string; created_at: Date }>(
        `INSERT INTO sandbox_deals (deal_id, activation_id, dsp, buyer_seat, status, targeting, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'active', $5, $6, $6)
         ON CONFLICT (activation_id) WHERE activation_id IS NOT NULL DO NOTHING
         RETURNING deal_id, created_at`,
        [sandboxDealId(), req.activationId, req.dsp, req.buyerSeat, JSON.stringify(req.targeting), now],
      )
      // No row: a concurrent call for the same activation created the deal first.
      return issued(rows[0] ?? (await dealOf(req.activationId))!)
    },
    async updateDeal(dealId: string, targeting: DealTargeting, now: Date): Promise<void> {
      await db.query(`UPDATE sandbox_deals SET targeting = $2, update_count = update_count + 1, updated_at = $3 WHERE deal_id = $1`, [
        dealId,
        JSON.stringify(targeting),
        now,
      ])
    },
    async deactivateDeal(dealId: string, _reason: string, now: Date): Promise<void> {
      await db.query(`UPDATE sandbox_deals SET status = 'inactive', updated_at = $2 WHERE deal_id = $1`, [dealId, now])
    },
  }
}
