import { notify, type Queryable } from '../platform/db/db.ts'
import type { CreatePixelCampaignBody, UpdatePixelCampaignBody, UseCase } from './schemas.ts'

export interface PixelCampaignRow {
  id: number
  name: string
  use_case: UseCase
  description: string | null
  created_date: Date
  last_updated_date: Date
}

/**
 * Collectors LISTEN here: a new campaign's id (payload `<id>`) is accepted as soon as its row commits,
 * a deleted one's (payload `-<id>`) refused from then on.
 */
export const campaignsChannel = 'curata_pixel_campaigns'

const columns = 'id, name, use_case, description, created_date, last_updated_date'

export async function createPixelCampaign(tx: Queryable, clientId: number, body: CreatePixelCampaignBody, now: Date): Promise<PixelCampaignRow> {
  const { rows } = await tx.query<PixelCampaignRow>(
    `INSERT INTO pixel_campaigns (client_id, name, use_case, description, created_date, last_updated_date)
     VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${columns}`,
    [clientId, body.name, body.use_case, body.description ?? null, now],
  )
  const row = rows[0]!
  await notify(tx, campaignsChannel, String(row.id))
  return row
}

export async function listPixelCampaigns(db: Queryable, clientId: number): Promise<PixelCampaignRow[]> {
  const { rows } = await db.query<PixelCampaignRow>(`SELECT ${columns} FROM pixel_campaigns WHERE client_id = $1 AND deleted_at IS NULL ORDER BY id`, [
    clientId,
  ])
  return rows
}

export async function getPixelCampaign(db: Queryable, clientId: number, id: number): Promise<PixelCampaignRow | null> {
  const { rows } = await db.query<PixelCampaignRow>(`SELECT ${columns} FROM pixel_campaigns WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL`, [
    id,
    clientId,
  ])
  return rows[0] ?? null
}

/** Changes the fields present in `changes` (a null description clears it); null when not this client's. */
export async function updatePixelCampaign(
  db: Queryable,
  clientId: number,
  id: number,
  changes: UpdatePixelCampaignBody,
  now: Date,
): Promise<PixelCampaignRow | null> {
  const { rows } = await db.query<PixelCampaignRow>(
    `UPDATE pixel_campaigns
        SET name = CASE WHEN $3 THEN $4 ELSE name END,
            use_case = CASE WHEN $5 THEN $6 ELSE use_case END,
            description = CASE WHEN $7 THEN $8 ELSE description END,
            last_updated_date = $9
      WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL
      RETURNING ${columns}`,
    [
      id,
      clientId,
      changes.name !== undefined,
      changes.name ?? null,
      changes.use_case !== undefined,
      changes.use_case ?? null,
      changes.description !== undefined,
      changes.description ?? null,
      now,
    ],
  )
  return rows[0] ?? null
}

/**
 * Soft-deletes one of the client's campaigns and tells the collectors; null when it is not the
 * client's (or already deleted). Its events, rollups and reports stay.
 */
export async function deletePixelCampaign(tx: Queryable, clientId: number, id: number, now: Date): Promise<PixelCampaignRow | null> {
  const { rows } = await tx.query<PixelCampaignRow>(
    `UPDATE pixel_campaigns SET deleted_at = $3, last_updated_date = $3
      WHERE id = $1 AND client_id = $2 AND deleted_at IS NULL RETURNING ${columns}`,
    [id, clientId, now],
  )
  if (rows[0]) await notify(tx, campaignsChannel, `-${id}`)
  return rows[0] ?? null
}

/** Campaign id -> owning client, for live ids above `afterId` (the collector's in-memory set). */
export async function campaignOwnersAfter(db: Queryable, afterId: number): Promise<{ id: number; client_id: number }[]> {
  const { rows } = await db.query<{ id: number; client_id: number }>(
    'SELECT id, client_id FROM pixel_campaigns WHERE id > $1 AND deleted_at IS NULL ORDER BY id',
    [afterId],
  )
  return rows
}

/** Ids of deleted campaigns at or below `maxId` (the collector drops them from its set). */
export async function deletedCampaignIds(db: Queryable, maxId: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>('SELECT id FROM pixel_campaigns WHERE id <= $1 AND deleted_at IS NOT NULL', [maxId])
  return rows.map((r) => r.id)
}
