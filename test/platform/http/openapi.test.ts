import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestApp } from '../../helpers/app.ts'
import { createTestApp } from '../../helpers/app.ts'
import { describeEachEngine } from '../../helpers/db.ts'

type Operation = { summary?: string; responses?: Record<string, unknown>; parameters?: unknown[] }
type Doc = { paths: Record<string, Record<string, Operation>> }

/** The OpenAPI document covers every public operation, with a summary and its error answers. */
describeEachEngine('the OpenAPI document', (getDb, engine) => {
  let t: TestApp
  let doc: Doc
  beforeAll(async () => {
    t = await createTestApp(getDb().db)
    doc = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Doc
  })
  afterAll(() => t.close())

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map(([method, op]) => ({ path, method, op })),
    )

  it('every operation has a summary and documents its error answers', () => {
    const ops = operations()
    expect(ops.length).toBeGreaterThan(40)
    for (const { path, method, op } of ops) {
      expect(op.summary, `${method} ${path}`).toBeTruthy()
      const errors = Object.keys(op.responses ?? {}).filter((s) => /^4\d\d$/.test(s))
      if (path.startsWith('/v1/') && path !== '/v1/openapi.json') expect(errors.length, `${method} ${path} documents no 4xx`).toBeGreaterThan(0)
    }
  })

  describe.runIf(engine === 'pglite')('the lifecycle operations', () => {
    it.each([
      ['patch', '/v1/curation/segment-requests/{id}'],
      ['delete', '/v1/curation/segment-requests/{id}'],
      ['post', '/v1/curation/segment-requests/{id}/rebuild'],
      ['get', '/v1/curation/reports'],
      ['get', '/v1/curation/activations'],
      ['get', '/v1/scraping/jobs'],
      ['post', '/v1/scraping/jobs/{id}/cancel'],
      ['delete', '/v1/pixel/campaigns/{id}'],
      ['get', '/v1/pixel/reports/publisher'],
      ['patch', '/v1/snowball/campaigns/{id}'],
      ['delete', '/v1/snowball/campaigns/{id}'],
    ])('%s %s', (method, path) => {
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined()
    })
  })
})
