import { Type } from '@sinclair/typebox'

import type { App } from '../../platform/http/app.ts'
import type { CurationContext } from '../context.ts'
import { badRequest, unprocessable } from '../../platform/http/errors.ts'
import { errorResponses } from '../../platform/http/schemas.ts'
import { normalizeDomain, registrableDomain } from '../../content/urls/domains.ts'
import { TaxonomyId } from '../segments/schemas.ts'
import { getNode } from '../../content/taxonomy/taxonomy.ts'
import { removeDomainFromAudience } from './repository.ts'

const RemoveQuery = Type.Object({
  tld: Type.String({ maxLength: 253, description: 'the domain whose URLs are removed (its registrable domain is used: www.example.com → example.com)' }),
  result_taxonomy_leaf_id: TaxonomyId,
})

/** DELETE /v1/curation/url-classifications/by-tld (spec 4.1). */
export function removalRoutes(app: App, ctx: CurationContext): void {
  app.delete(
    '/url-classifications/by-tld',
    {
      schema: {
        tags: ['curation'],
        summary: "Remove a domain's URLs from an audience (a taxonomy leaf) in all of this client's segments",
        description:
          "The audience of a leaf is the URLs of this client's segments built for that taxonomy node plus the URLs classified under it anywhere in its segments. " +
          'The removal is remembered: later builds and optimizations keep the domain out of that audience. deleted_count counts the URL entries removed.',
        querystring: RemoveQuery,
        response: { 200: Type.Object({ deleted_count: Type.Integer() }, { title: 'RemovalResult' }), ...errorResponses(400, 422) },
      },
    },
    async (req) => {
      // An empty tld is a missing one: both parameters are required (400), a malformed domain is a 422.
      if (req.query.tld.trim() === '') throw badRequest('query.tld is required: the domain to remove', [{ path: 'query.tld', message: 'required' }])
      const domain = normalizeDomain(req.query.tld)
      if (!domain) throw unprocessable(`query.tld is not a domain name`, [{ path: 'query.tld', message: 'not a domain name' }])
      const leaf = req.query.result_taxonomy_leaf_id
      if (!getNode(leaf)) {
        throw unprocessable(`query.result_taxonomy_leaf_id ${leaf} is not a category of the taxonomy`, [
          { path: 'query.result_taxonomy_leaf_id', message: 'unknown taxonomy id' },
        ])
      }
      const clientId = req.principal!.clientId
      const deleted = await ctx.db.transaction((tx) => removeDomainFromAudience(tx, clientId, registrableDomain(domain), leaf, ctx.clock.now()))
      return { deleted_count: deleted }
    },
  )
}
