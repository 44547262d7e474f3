// The collector's in-memory set of campaign ids (id -> owning client): the hot path never asks the
// database whether a campaign exists. Loaded at start, extended when a NOTIFY announces a new
// campaign, re-read periodically (a NOTIFY can be missed across a reconnect), and consulted once
// per batch for ids above the highest known one, so a hit that raced its campaign's creation is
// not mistaken for an unknown campaign. A deleted campaign leaves the set on its NOTIFY, and on the
// periodic re-read, which also reads the (few) deleted ids.
import type { Db } from '../../platform/db/db.ts'
import { campaignOwnersAfter, campaignsChannel, deletedCampaignIds } from '../campaigns-repository.ts'

export interface CampaignOwners {
  /** The owning client of a known campaign. */
  owner(id: number): number | undefined
  /** Reads campaigns created (and deleted) since the last read; the read starts after the call. */
  refresh(): Promise<void>
  /** True when `id` is above every id seen: it may belong to a campaign created since. */
  mayBeNew(id: number): boolean
  start(): Promise<void>
  stop(): Promise<void>
}

export function createCampaignOwners(db: Db, refreshMs: number, onError: (err: unknown) => void): CampaignOwners {
  const owners = new Map<number, number>()
  let maxId = 0
  let running: Promise<void> | null = null
  let timer: NodeJS.Timeout | null = null
  let unlisten: (() => Promise<void>) | null = null

  let queued: Promise<void> | null = null

  const read = (): Promise<void> =>
    Promise.all([campaignOwnersAfter(db, maxId), deletedCampaignIds(db, maxId)]).then(([rows, deleted]) => {
      for (const r of rows) {
        owners.set(r.id, r.client_id)
        if (r.id > maxId) maxId = r.id
      }
      for (const id of deleted) owners.delete(id)
    })

  // A caller must get a read that started after its call: a read in flight may have begun before the
  // caller's campaign committed. So a call during a read waits for one more read, shared by every
  // caller that arrives meanwhile (at most one read runs, and one waits).
  const refresh = (): Promise<void> => {
    if (!running) {
      running = read().finally(() => {
        running = null
      })
      return running
    }
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = null
        return refresh()
      })
    return queued
  }

  return {
    owner: (id) => owners.get(id),
    refresh,
    mayBeNew: (id) => id > maxId,
    async start() {
      await refresh()
      unlisten = await db.listen(campaignsChannel, (payload) => {
        if (payload.startsWith('-')) owners.delete(Number(payload.slice(1)))
        else void refresh().catch(onError)
      })
      timer = setInterval(() => void refresh().catch(onError), refreshMs)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      await unlisten?.().catch(() => {})
      await running?.catch(() => {})
    },
  }
}
