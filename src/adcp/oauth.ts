/**
 * OAuth 2.0 for the MCP endpoint, so an agent (and AdCP's security_baseline) can discover and verify
 * how to authenticate without being handed a key format: the service is its own authorization
 * server for the client-credentials grant, whose client secret is the Curata API key.
 *  - GET /.well-known/oauth-protected-resource/mcp (RFC 9728): resource = the /mcp URL, this
 *    service as the authorization server;
 *  - GET /.well-known/oauth-authorization-server (RFC 8414): issuer, token endpoint;
 *  - POST /oauth/token (RFC 6749 §4.4): grant_type=client_credentials, the API key as client_secret
 *    (HTTP Basic or in the form); answers a one-hour Bearer access token.
 * /mcp accepts the access token wherever it accepts the key. Tokens are stored hashed and die with
 * their key. The API key itself stays valid as a Bearer credential.
 */
import { createHash, randomBytes } from 'node:crypto'

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Queryable } from '../platform/db/db.ts'
import type { App } from '../platform/http/app.ts'
import type { KeyVerifier } from '../platform/keys/key-cache.ts'
import type { Principal } from '../platform/keys/keys.ts'
import type { AdcpContext } from './context.ts'

export const tokenTtlSeconds = 3600
const tokenShape = /^cat_[A-Za-z0-9_-]{43}$/
const hash = (token: string) => createHash('sha256').update(token).digest('hex')

/** The principal behind an access token, or null (unknown, expired, or its key revoked). */
export async function verifyAccessToken(db: Queryable, token: string, now: Date): Promise<Principal | null> {
  if (!tokenShape.test(token)) return null
  const { rows } = await db.query<{ api_key_id: number; client_id: number }>(
    `SELECT t.api_key_id, t.client_id FROM adcp_access_tokens t JOIN api_keys k ON k.id = t.api_key_id
      WHERE t.token_hash = $1 AND t.expires_at > $2 AND k.revoked_at IS NULL`,
    [hash(token), now],
  )
  const r = rows[0]
  return r ? { keyId: Number(r.api_key_id), clientId: Number(r.client_id) } : null
}

async function issueToken(db: Queryable, p: Principal, now: Date): Promise<string> {
  const token = `cat_${randomBytes(32).toString('base64url')}`
  await db.query(`DELETE FROM adcp_access_tokens WHERE expires_at <= $1`, [now])
  await db.query(`INSERT INTO adcp_access_tokens (token_hash, api_key_id, client_id, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)`, [
    hash(token),
    p.keyId,
    p.clientId,
    new Date(now.getTime() + tokenTtlSeconds * 1000),
    now,
  ])
  return token
}

/** The client secret of a token request: HTTP Basic (client_id:client_secret) or the form's client_secret. */
function clientSecret(req: FastifyRequest, form: Record<string, unknown>): string | null {
  const auth = req.headers.authorization ?? ''
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth)
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    return decodeURIComponent(colon < 0 ? decoded : decoded.slice(colon + 1))
  }
  return typeof form.client_secret === 'string' ? form.client_secret : null
}

const oauthError = (reply: FastifyReply, status: number, error: string, description: string) => {
  if (status === 401) reply.header('www-authenticate', 'Basic realm="curata"')
  return reply.code(status).header('cache-control', 'no-store').send({ error, error_description: description, message: description })
}

export async function oauthRoutes(app: App, ctx: AdcpContext, keys: KeyVerifier, base: (req: FastifyRequest) => string): Promise<void> {
  const protectedResource = async (req: FastifyRequest) => ({
    resource: `${base(req)}/mcp`,
    authorization_servers: [base(req)],
    bearer_methods_supported: ['header'],
    resource_name: 'Curata AdCP signals agent',
  })
  for (const url of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    app.get(url, { schema: { hide: true } }, protectedResource)
  }
  app.get('/.well-known/oauth-authorization-server', { schema: { hide: true } }, async (req) => ({
    issuer: base(req),
    token_endpoint: `${base(req)}/oauth/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    response_types_supported: ['token'],
  }))

  // RFC 6749 token requests are form-encoded: parsed here only, not on the rest of the API.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8192 }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    })
    scope.post('/oauth/token', { schema: { hide: true } }, async (req, reply) => {
      const form = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {}
      if (form.grant_type !== 'client_credentials') {
        return oauthError(reply, 400, 'unsupported_grant_type', 'grant_type must be client_credentials')
      }
      const secret = clientSecret(req, form)
      if (!secret) return oauthError(reply, 401, 'invalid_client', 'send the API key as the client secret (HTTP Basic, or client_secret in the form)')
      const principal = await keys.verify(secret)
      if (!principal) return oauthError(reply, 401, 'invalid_client', 'unknown or revoked API key')
      const token = await issueToken(ctx.db, principal, ctx.clock.now())
      return reply.header('cache-control', 'no-store').send({ access_token: token, token_type: 'Bearer', expires_in: tokenTtlSeconds })
    })
  })
}
