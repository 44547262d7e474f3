import { afterAll, beforeAll, expect, it } from 'vitest'

import type { TestApp } from '../helpers/app.ts'
import { createTestApp, json } from '../helpers/app.ts'
import { describeEachEngine } from '../helpers/db.ts'

interface Node {
  id: number
  unique_id: string
  name: string
  tier: number
  parent_id: number | null
  level1_name: string
  level2_name: string | null
  level3_name: string | null
  child_count: number
}
interface Page {
  taxonomy: string
  cattax: number
  total: number
  nodes: Node[]
}

describeEachEngine('browsing the taxonomy', (getDb) => {
  let t: TestApp
  let h: Record<string, string>
  const get = async (q: string) => t.app.inject({ method: 'GET', url: `/v1/curation/taxonomy${q}`, headers: h })
  beforeAll(async () => {
    t = await createTestApp(getDb().db)
    h = (await t.client()).headers
  })
  afterAll(() => t.close())

  it('lists tier-1 nodes with their fields', async () => {
    const body = json<Page>(await get('?tier=1'))
    expect(body).toMatchObject({ taxonomy: 'IAB Tech Lab Content Taxonomy 3.1', cattax: 9, total: 37 })
    const sports = body.nodes.find((n) => n.id === 483)
    expect(sports).toEqual({
      id: 483,
      unique_id: '483',
      name: 'Sports',
      tier: 1,
      parent_id: null,
      level1_name: 'Sports',
      level2_name: null,
      level3_name: null,
      extension: null,
      child_count: expect.any(Number),
    })
    expect(body.nodes.find((n) => n.unique_id === 'JLBCU7')?.id).toBeGreaterThan(1_000_000)
  })

  it('lists the children of a node, pages, and searches names', async () => {
    const kids = json<Page>(await get('?parent_id=483&limit=5'))
    expect(kids.nodes).toHaveLength(5)
    expect(kids.total).toBeGreaterThan(5)
    expect(kids.nodes.every((n) => n.parent_id === 483 && n.tier === 2 && n.level1_name === 'Sports')).toBe(true)
    const rest = json<Page>(await get(`?parent_id=483&limit=5&offset=5`))
    expect(rest.nodes.map((n) => n.id)).not.toContain(kids.nodes[0]!.id)
    const search = json<Page>(await get('?q=SOCCER'))
    expect(search.nodes[0]).toMatchObject({ id: 533, name: 'Soccer', level1_name: 'Sports', level2_name: 'Soccer' })
    const combined = json<Page>(await get('?q=football&tier=2'))
    expect(combined.nodes.every((n) => n.tier === 2 && n.name.toLowerCase().includes('football'))).toBe(true)
    expect(json<Page>(await get('?q=zzzzzz')).nodes).toEqual([])
  })

  it('shows one node with its ancestors and children', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/curation/taxonomy/533', headers: h })
    const body = json<{ node: Node; ancestors: Node[]; children: Node[] }>(res)
    expect(body.node.name).toBe('Soccer')
    expect(body.ancestors.map((n) => n.id)).toEqual([483])
    expect((await t.app.inject({ method: 'GET', url: '/v1/curation/taxonomy/999999', headers: h })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/v1/curation/taxonomy/abc', headers: h })).statusCode).toBe(400)
    expect((await t.app.inject({ method: 'GET', url: '/v1/curation/taxonomy/0', headers: h })).statusCode).toBe(422)
  })

  it('rejects bad parameters', async () => {
    for (const [q, status] of [
      ['?tier=5', 422],
      ['?tier=x', 400],
      ['?parent_id=999999', 422],
      ['?parent_id=abc', 400],
      ['?limit=0', 422],
      ['?limit=1001', 422],
      ['?offset=-1', 422],
    ] as const) {
      expect((await get(q)).statusCode, q).toBe(status)
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/curation/taxonomy' })).statusCode).toBe(401)
  })
})
