import type { Queryable } from '../platform/db/db.ts'
import type { RegisteredCampaign } from './schemas.ts'

type Row = RegisteredCampaign

const columns = 'id, client_id, description, created_date, last_updated_date, deleted'

export async function registerCampaign(db: Queryable, clientId: number, description: string, now: Date): Promise<Row> {
  const { rows } = await db.query<Row>(
    `INSERT INTO snowball_campaigns (client_id, description, created_date, last_updated_date)
     VALUES ($1, $2, $3, $3) RETURNING ${columns}`,
    [clientId, description, now],
  )
  return rows[0]!
}

export async function listCampaigns(db: Queryable, clientId: number): Promise<Row[]> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM snowball_campaigns WHERE client_id = $1 AND NOT deleted ORDER BY id`, [clientId])
  return rows
}

export async function getCampaign(db: Queryable, clientId: number, id: number): Promise<Row | null> {
  const { rows } = await db.query<Row>(`SELECT ${columns} FROM snowball_campaigns WHERE id = $1 AND client_id = $2 AND NOT deleted`, [id, clientId])
  return rows[0] ?? null
}

/** Changes the description; null when the campaign is not the client's (or is deleted). */
export async function updateCampaign(db: Queryable, clientId: number, id: number, description: string, now: Date): Promise<Row | null> {
  const { rows } = await db.query<Row>(
    `UPDATE snowball_campaigns SET description = $3, last_updated_date = $4
      WHERE id = $1 AND client_id = $2 AND NOT deleted RETURNING ${columns}`,
    [id, clientId, description, now],
  )
  return rows[0] ?? null
}

/** Soft delete (the spec's `deleted`): the record stays, marked, and is no longer listed or found. */
export async function deleteCampaign(db: Queryable, clientId: number, id: number, now: Date): Promise<Row | null> {
  const { rows } = await db.query<Row>(
    `UPDATE snowball_campaigns SET deleted = true, last_updated_date = $3
      WHERE id = $1 AND client_id = $2 AND NOT deleted RETURNING ${columns}`,
    [id, clientId, now],
  )
  return rows[0] ?? null
}
