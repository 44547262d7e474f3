import type { Queryable } from '../platform/db/db.ts'
import type { Activation, CreateActivationBody } from './schemas.ts'

export interface ActivationRow {
  id: number
  client_id: number
  segment_ids: number[]
  dsp: string
  buyer_seat: string
  connector: string
  status: Activation['status']
  deal_id: string | null
  ttl_hours: number | null
  start_date: string | null
  end_date: string | null
  geo: string[] | null
  formats: string[] | null
  devices: string[] | null
  kpis: Activation['kpis']
  budget: Activation['budget']
  created_date: Date
  processed_date: Date | null
  ready_at: Date | null
  failure_reason: string | null
  deal_state: Activation['deal_state']
  deal_state_reason: string | null
  deal_state_changed_at: Date | null
  last_used_at: Date | null
  targeting: Activation['targeting']
}

export async function insertActivation(q: Queryable, clientId: number, b: CreateActivationBody, connector: string, now: Date): Promise<ActivationRow> {
  const { rows } = await q.query<ActivationRow>(
    `INSERT INTO activations (client_id, segment_ids, dsp, buyer_seat, connector, start_date, end_date, geo, formats,
                              devices, kpis, budget, created_date)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     RETURNING *`,
    [
      clientId,
      b.segment_ids,
      b.dsp,
      b.buyer_seat,
      connector,
      b.start_date ?? null,
      b.end_date ?? null,
      b.geo ?? null,
      b.formats ?? null,
      b.devices ?? null,
      b.kpis ? JSON.stringify(b.kpis) : null,
      b.budget ? JSON.stringify(b.budget) : null,
      now,
    ],
  )
  return rows[0]!
}

export async function getActivation(q: Queryable, clientId: number, id: number): Promise<ActivationRow | null> {
  const { rows } = await q.query<ActivationRow>('SELECT * FROM activations WHERE id = $1 AND client_id = $2', [id, clientId])
  return rows[0] ?? null
}

/** Reads an activation for a job (no client scope: the job carries the id it was given). */
export async function loadActivation(q: Queryable, id: number): Promise<ActivationRow | null> {
  const { rows } = await q.query<ActivationRow>('SELECT * FROM activations WHERE id = $1', [id])
  return rows[0] ?? null
}

export async function listActivations(q: Queryable, clientId: number): Promise<ActivationRow[]> {
  const { rows } = await q.query<ActivationRow>('SELECT * FROM activations WHERE client_id = $1 ORDER BY id', [clientId])
  return rows
}

/** Segments of this client among ids, with their build status. */
export interface SegmentState {
  status: string
  /** Whether the segment holds any URL now (what its build found, less what removals took out). */
  hasUrls: boolean
}

/** The client's segments among `ids` that exist and are not deleted, with their state. */
export async function segmentStates(q: Queryable, clientId: number, ids: number[]): Promise<Map<number, SegmentState>> {
  const { rows } = await q.query<{ id: number; status: string; has_urls: boolean }>(
    `SELECT s.id, s.status, EXISTS (SELECT 1 FROM segment_urls u WHERE u.segment_id = s.id) AS has_urls
       FROM segment_requests s WHERE s.client_id = $1 AND s.id = ANY($2::bigint[]) AND NOT s.deleted`,
    [clientId, ids],
  )
  return new Map(rows.map((r) => [r.id, { status: r.status, hasUrls: r.has_urls }]))
}

/**
 * The API shape: spec 2.2 plus the documented extras. The Deal ID is issued while the activation is
 * processing but, as the spec says, shown only once it is complete (the deal is targetable).
 */
export function toActivation(r: ActivationRow, sandbox: boolean): Activation {
  const complete = r.status === 'complete'
  return {
    id: r.id,
    // bigint[] comes back as strings from PostgreSQL (the adapters parse scalar int8 only).
    segment_ids: r.segment_ids.map(Number),
    dsp: r.dsp,
    buyer_seat: r.buyer_seat,
    status: r.status,
    deal_id: complete ? r.deal_id : null,
    ttl_hours: complete ? r.ttl_hours : null,
    start_date: r.start_date,
    end_date: r.end_date,
    geo: r.geo,
    formats: r.formats,
    devices: r.devices,
    kpis: r.kpis,
    budget: r.budget,
    created_date: r.created_date.toISOString(),
    processed_date: complete && r.processed_date ? r.processed_date.toISOString() : null,
    connector: r.connector,
    sandbox,
    failure_reason: r.failure_reason,
    estimated_ready_date: r.status === 'processing' && r.ready_at ? r.ready_at.toISOString() : null,
    deal_state: r.deal_state,
    deal_state_reason: r.deal_state_reason,
    deal_last_used_date: r.last_used_at?.toISOString() ?? null,
    targeting: r.targeting,
  }
}
