import { Type } from '@sinclair/typebox'
import { getNode } from '../../content/taxonomy/taxonomy.ts'
import { normalizeDomain, registrableDomain } from '../../content/urls/domains.ts'
import type { App } from '../../platform/http/app.ts'
import { badRequest, unprocessable } from '../../platform/http/errors.ts'
import { errorResponses } from '../../platform/http/schemas.ts'
import type { CurationContext } from '../context.ts'
import { TaxonomyId } from '../segments/schemas.ts'
import { removalReach, removeDomainFromAudience } from './repository.ts'

const RemoveQuery = Type.Object({
  tld: Type.String({ maxLength: 253, description: 'the domain whose URLs are removed (its registrable domain is used: www.example.com → example.com)' }),
  result_taxonomy_leaf_id: TaxonomyId,
  dry_run: Type.Optional(Type.Boolean({ default: false, description: 'true: answer what would be removed, change nothing (an addition to the spec)' })),
})

const RemovalResult = Type.Object(
  {
    deleted_count: Type.Integer({ description: 'URL entries removed (with dry_run: that would be removed), over all segments' }),
    tld: Type.String({ description: 'the registrable domain the removal applies to' }),
    result_taxonomy_leaf_id: Type.Integer(),
    dry_run: Type.Boolean(),
    segments: Type.Array(
      Type.Object({
        segment_id: Type.Integer(),
        name: Type.Union([Type.String(), Type.Null()]),
        via: Type.Union([Type.Literal('segment_taxonomy'), Type.Literal('url_classification')], {
          description: 'segment_taxonomy: the segment was built for this leaf; url_classification: some of its URLs are classified under it',
        }),
        deleted_count: Type.Integer(),
      }),
      { description: 'every segment the removal reaches, with its count (an addition to the spec)' },
    ),
  },
  { title: 'RemovalResult' },
)

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
          'The removal is remembered: later builds and optimizations keep the domain out of that audience. deleted_count counts the URL entries removed; ' +
          'segments says which segments it reached and why. dry_run=true answers the same without changing anything.',
        querystring: RemoveQuery,
        response: { 200: RemovalResult, ...errorResponses(400, 422) },
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
      const tld = registrableDomain(domain)
      const dryRun = req.query.dry_run === true
      const segments = dryRun
        ? await removalReach(ctx.db, clientId, tld, leaf)
        : await ctx.db.transaction((tx) => removeDomainFromAudience(tx, clientId, tld, leaf, ctx.clock.now()))
      const deleted = segments.reduce((n, s) => n + s.deleted_count, 0)
      return { deleted_count: deleted, tld, result_taxonomy_leaf_id: leaf, dry_run: dryRun, segments }
    },
  )
}
