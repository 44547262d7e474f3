import { Type } from '@sinclair/typebox'
import type { TaxonomyNode as Node } from '../../content/taxonomy/taxonomy.ts'
import { allNodes, CATTAX, getNode, TAXONOMY_NAME } from '../../content/taxonomy/taxonomy.ts'
import type { App } from '../../platform/http/app.ts'
import { notFound, unprocessable } from '../../platform/http/errors.ts'
import { errorResponses, nullable } from '../../platform/http/schemas.ts'

export const TaxonomyNode = Type.Object(
  {
    id: Type.Integer({ description: 'the taxonomy_id used everywhere in the API' }),
    unique_id: Type.String({ description: 'the IAB Unique ID as published' }),
    name: Type.String(),
    tier: Type.Integer({ minimum: 1, maximum: 4 }),
    parent_id: nullable(Type.Integer()),
    level1_name: Type.String(),
    level2_name: nullable(Type.String()),
    level3_name: nullable(Type.String()),
    extension: nullable(Type.String({ description: '"SCD" for Special Category Data nodes' })),
    child_count: Type.Integer(),
  },
  { title: 'TaxonomyNode' },
)

const TaxonomyQuery = Type.Object({
  parent_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'children of this node' })),
  tier: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'case-insensitive name search: exact and prefix matches first' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
})

const childCounts = new Map<number, number>()
for (const n of allNodes()) if (n.parent_id !== null) childCounts.set(n.parent_id, (childCounts.get(n.parent_id) ?? 0) + 1)

const view = (n: Node) => ({
  id: n.id,
  unique_id: n.unique_id,
  name: n.name,
  tier: n.tier,
  parent_id: n.parent_id,
  level1_name: n.level1_name,
  level2_name: n.level2_name,
  level3_name: n.level3_name,
  extension: n.extension ?? null,
  child_count: childCounts.get(n.id) ?? 0,
})

/** Browsing IAB Content Taxonomy 3.1 (docs/taxonomy-and-classification.md). */
export function taxonomyRoutes(app: App): void {
  app.get(
    '/taxonomy',
    {
      schema: {
        tags: ['curation'],
        summary: 'Browse the content taxonomy (IAB Content Taxonomy 3.1)',
        description: 'Filters combine: parent_id (children of a node), tier, q (name search). Without filters, all nodes in taxonomy order.',
        querystring: TaxonomyQuery,
        response: {
          200: Type.Object(
            {
              taxonomy: Type.String(),
              cattax: Type.Integer(),
              total: Type.Integer(),
              limit: Type.Integer(),
              offset: Type.Integer(),
              nodes: Type.Array(TaxonomyNode),
            },
            { title: 'TaxonomyPage' },
          ),
          ...errorResponses(400, 422),
        },
      },
    },
    async (req) => {
      const { parent_id, tier, q } = req.query
      if (parent_id !== undefined && !getNode(parent_id)) {
        throw unprocessable(`query.parent_id ${parent_id} is not a category of the taxonomy`, [{ path: 'query.parent_id', message: 'unknown taxonomy id' }])
      }
      const needle = q?.trim().toLowerCase() ?? ''
      let nodes = allNodes().filter(
        (n) =>
          (parent_id === undefined || n.parent_id === parent_id) &&
          (tier === undefined || n.tier === tier) &&
          (!needle || n.name.toLowerCase().includes(needle)),
      )
      if (needle) {
        const rank = (n: Node): number => {
          const name = n.name.toLowerCase()
          return (name === needle ? 0 : name.startsWith(needle) ? 1 : 2) * 10 + n.tier
        }
        nodes = [...nodes].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
      }
      const limit = req.query.limit ?? 100
      const offset = req.query.offset ?? 0
      return { taxonomy: TAXONOMY_NAME, cattax: CATTAX, total: nodes.length, limit, offset, nodes: nodes.slice(offset, offset + limit).map(view) }
    },
  )

  app.get(
    '/taxonomy/:id',
    {
      schema: {
        tags: ['curation'],
        summary: 'One taxonomy node with its path and children',
        params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }),
        response: {
          200: Type.Object({ node: TaxonomyNode, ancestors: Type.Array(TaxonomyNode), children: Type.Array(TaxonomyNode) }, { title: 'TaxonomyNodeDetail' }),
          ...errorResponses(400, 404, 422),
        },
      },
    },
    async (req) => {
      const n = getNode(req.params.id)
      if (!n) throw notFound('taxonomy node')
      const ancestors: Node[] = []
      for (let p = n.parent_id === null ? undefined : getNode(n.parent_id); p; p = p.parent_id === null ? undefined : getNode(p.parent_id)) ancestors.unshift(p)
      const kids = allNodes().filter((c) => c.parent_id === n.id)
      return { node: view(n), ancestors: ancestors.map(view), children: kids.map(view) }
    },
  )
}
