import { afterAll, beforeAll, expect, it } from 'vitest'

import { buildJob } from '../../src/curation/builder/build-segment.ts'
import { createWorker } from '../../src/platform/jobs/worker.ts'
import { json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'
import { waitFor, whileWorking } from '../helpers/wait.ts'
import { indexTopic } from './fixtures.ts'
import type { CurationTestApp, SegmentRecord } from './helpers.ts'
import { createCurationApp } from './helpers.ts'

const path = '/v1/curation/segment-requests'
type Headers = Record<string, string>

/** Rename, delete and rebuild a segment (docs/curation.md, "Lifecycle"). */
describeEachEngine('segment lifecycle', (getDb) => {
  let t: CurationTestApp
  let a: { headers: Headers; clientId: number }
  let b: { headers: Headers; clientId: number }
  const sports = (from: number, n: number) => Array.from({ length: n }, (_, i) => `https://www.league${from + i}.example.com/match/${i}`)
  beforeAll(async () => {
    t = await createCurationApp(getDb().db)
    a = await t.client('Acme')
    b = await t.client('Other')
    await indexTopic(getDb().db, 'sports', sports(0, 6), 300)
  })
  afterAll(() => t.close())

  const send = (method: 'PATCH' | 'DELETE' | 'POST', headers: Headers, url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) })
  const prompt = 'sports fans following games, results and transfer news'

  it('PATCH renames; null clears the name; the record keeps everything else', async () => {
    const seg = await t.build(a.headers, { name: 'Sports', prompt })
    const res = await send('PATCH', a.headers, `${path}/${seg.id}`, { name: '  Match-day readers ' })
    expect(res.statusCode, res.body).toBe(200)
    expect(json(res)).toMatchObject({ id: seg.id, name: 'Match-day readers', prompt, url_count: seg.url_count, processed_date: seg.processed_date })
    expect(json<SegmentRecord>(await t.get(a.headers, `${path}/${seg.id}`)).name).toBe('Match-day readers')
    expect(json(await send('PATCH', a.headers, `${path}/${seg.id}`, { name: null }))).toMatchObject({ name: null })
  })

  it('PATCH bad input: unknown field, wrong type, too long, not JSON, bad id, another client', async () => {
    const seg = await t.build(a.headers, { prompt })
    const cases: [unknown, number][] = [
      [{ prompt: 'other' }, 400],
      [{ name: 42 }, 400],
      [{ name: 'x'.repeat(201) }, 422],
      [{}, 400],
    ]
    for (const [body, status] of cases) {
      const res = await send('PATCH', a.headers, `${path}/${seg.id}`, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(status)
      expect(json(res)).toMatchObject({ error: expect.any(String), message: expect.any(String) })
    }
    const text = await t.app.inject({ method: 'PATCH', url: `${path}/${seg.id}`, headers: { ...a.headers, 'content-type': 'text/plain' }, payload: 'name' })
    expect(text.statusCode).toBe(415)
    expect((await send('PATCH', a.headers, `${path}/abc`, { name: 'x' })).statusCode).toBe(400)
    const other = await send('PATCH', b.headers, `${path}/${seg.id}`, { name: 'mine now' })
    expect(other.statusCode).toBe(404)
    expect(json(other)).toMatchObject({ error: 'not_found' })
  })

  it('DELETE is soft: answered with deleted true, then not found, not listed, not activatable', async () => {
    const seg = await t.build(a.headers, { prompt })
    expect((await send('DELETE', b.headers, `${path}/${seg.id}`)).statusCode).toBe(404)
    const res = await send('DELETE', a.headers, `${path}/${seg.id}`)
    expect(res.statusCode, res.body).toBe(200)
    expect(json(res)).toMatchObject({ id: seg.id, deleted: true })
    expect((await t.get(a.headers, `${path}/${seg.id}`)).statusCode).toBe(404)
    expect((await t.get(a.headers, `${path}/${seg.id}/urls`)).statusCode).toBe(404)
    expect(json<{ id: number }[]>(await t.get(a.headers, path)).map((s) => s.id)).not.toContain(seg.id)
    expect((await send('DELETE', a.headers, `${path}/${seg.id}`)).statusCode).toBe(404)
    expect((await send('PATCH', a.headers, `${path}/${seg.id}`, { name: 'x' })).statusCode).toBe(404)
    expect((await send('POST', a.headers, `${path}/${seg.id}/rebuild`)).statusCode).toBe(404)
    const act = await t.post(a.headers, '/v1/curation/activations', { segment_ids: [seg.id], dsp: 'ttd', buyer_seat: 'seat-1' })
    expect(act.statusCode).toBeGreaterThanOrEqual(400)
    expect(act.statusCode).toBeLessThan(500)
    expect(json<{ message: string }>(act).message).toContain(String(seg.id))
    // The row is kept (soft delete), marked, with a change row for the activation feature.
    const { rows } = await getDb().db.query<{ deleted: boolean }>('SELECT deleted FROM segment_requests WHERE id = $1', [seg.id])
    expect(rows[0]?.deleted).toBe(true)
    const changes = await getDb().db.query<{ kind: string }>('SELECT kind FROM segment_changes WHERE segment_id = $1 ORDER BY id', [seg.id])
    expect(changes.rows.map((r) => r.kind).at(-1)).toBe('deleted')
    expect((await send('DELETE', a.headers, `${path}/999999`)).statusCode).toBe(404)
    const bad = await send('DELETE', a.headers, `${path}/-1`)
    expect([400, 422]).toContain(bad.statusCode)
    expect(json(bad)).toMatchObject({ error: expect.any(String), message: expect.any(String) })
  })

  it('rebuild builds a complete segment again over the grown index; the old list serves meanwhile; 409 while building', async () => {
    const seg = await t.build(a.headers, { prompt })
    const before = seg.url_count!
    await indexTopic(getDb().db, 'sports', sports(100, 5), 400)
    await t.worker.stop() // hold the build so the in-between state can be seen (a new worker runs it below)
    const res = await send('POST', a.headers, `${path}/${seg.id}/rebuild`)
    expect(res.statusCode, res.body).toBe(202)
    expect(json(res)).toMatchObject({ id: seg.id, status: 'pending', processed_date: seg.processed_date })
    expect((await t.urls(a.headers, seg.id)).length).toBe(before)
    const again = await send('POST', a.headers, `${path}/${seg.id}/rebuild`)
    expect(again.statusCode).toBe(409)
    expect(json(again)).toMatchObject({ error: 'conflict' })
    expect((await send('POST', b.headers, `${path}/${seg.id}/rebuild`)).statusCode).toBe(404)
    const worker = createWorker({ db: getDb().db, clock: t.ctx.clock, handlers: [buildJob(t.ctx)], pollMs: 20, graceMs: 500 })
    await whileWorking(worker, async () => {
      let rebuilt: SegmentRecord | null = null
      await waitFor(async () => {
        rebuilt = json<SegmentRecord>(await t.get(a.headers, `${path}/${seg.id}`))
        return rebuilt.status === 'complete'
      })
      expect(rebuilt!.url_count).toBeGreaterThan(before)
      expect(new Date(rebuilt!.processed_date!).getTime()).toBeGreaterThanOrEqual(new Date(seg.processed_date!).getTime())
      expect((await t.urls(a.headers, seg.id)).map((u) => u.url)).toContain(sports(100, 1)[0])
    })
  })
})
