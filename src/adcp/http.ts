/**
 * MCP Streamable HTTP at `/mcp` (and `/mcp/`) on the API's Fastify app, stateless: each POST gets a
 * fresh McpServer and transport, JSON responses (no SSE, no session id). GET and DELETE (stream and
 * session operations, meaningless without sessions) answer 405.
 *
 * The gate runs before any MCP processing: an RFC 9421 signature of a registered key (signing/), or
 * the same API keys as REST, as `Authorization: Bearer`, `x-adcp-auth` or `X-API-Key`, or an OAuth
 * access token of the client-credentials grant (oauth.ts) as `Authorization: Bearer`; without a
 * valid one, 401 with `WWW-Authenticate: Bearer realm="curata"` (RFC 6750), or `Signature
 * error="…"` for a signature refused. Each request counts against the key's rate limit, as a REST
 * request does.
 */
import type { IncomingMessage } from 'node:http'

import type { FastifyReply, FastifyRequest } from 'fastify'
import type { App, Feature } from '../platform/http/app.ts'
import { presentedKey } from '../platform/http/auth.ts'
import { ApiError } from '../platform/http/errors.ts'
import { headersFor } from '../platform/http/rate-limit.ts'
import type { KeyVerifier } from '../platform/keys/key-cache.ts'
import { createKeyVerifier } from '../platform/keys/key-cache.ts'
import type { Principal } from '../platform/keys/keys.ts'
import type { AdcpContext } from './context.ts'
import { oauthRoutes, verifyAccessToken } from './oauth.ts'
import type { SignedRequest } from './signing/canonical.ts'
import {
  digestPolicy,
  hasBody,
  operationsOf,
  parseJson,
  readBody,
  replay,
  requiredFor,
  SignatureError,
  signatureUnauthorized,
  signedRequestOf,
} from './signing/http.ts'
import { verifierStore } from './signing/store.ts'
import type { HeadersVerified, VerifierDeps } from './signing/verify.ts'
import { completeVerification, isSigned, signatureRequired, verifyHeaders } from './signing/verify.ts'

export const mcpPaths = ['/mcp', '/mcp/'] as const
const realm = 'curata'
/** The API app's body limit (platform/http/app.ts), applied while the gate reads the body. */
const bodyLimit = 1024 * 1024

/** RFC 6750 challenge, naming the protected-resource metadata (RFC 9728 §5.1) so a client can discover the token endpoint. */
function unauthorized(message: string, invalid: boolean, metadata: string): ApiError {
  const base = `Bearer realm="${realm}", resource_metadata="${metadata}"`
  const challenge = invalid ? `${base}, error="invalid_token", error_description="${message}"` : base
  return new ApiError(401, 'unauthorized', message, undefined, { 'www-authenticate': challenge })
}

interface AuthState {
  /** a signed request whose headers verified: the body checks remain */
  signed?: { req: SignedRequest; verified: HeadersVerified<Principal> }
  /** an unsigned request without a valid key: refused once the body shows whether it had to be signed */
  refused?: ApiError
}
const states = new WeakMap<FastifyRequest, AuthState>()

/**
 * Authentication in two hooks. onRequest (headers only): a signed request is verified up to its
 * signature (its key gives the principal); otherwise the bearer key or token. preParsing (the body):
 * a signed request's Content-Digest and nonce; an unsigned one that must be signed is refused with
 * request_signature_required (before the bearer verdict, which the body cannot change).
 */
function gate(ctx: AdcpContext, keys: KeyVerifier) {
  const verifier: VerifierDeps<Principal> = { ...verifierStore(ctx.db, () => ctx.clock.now()), digestPolicy }
  const onRequest = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = baseUrl(ctx, req)
    const signed = signedRequestOf(req, origin)
    if (isSigned(signed)) {
      let verified: HeadersVerified<Principal>
      try {
        verified = await verifyHeaders(signed, hasBody(req), verifier)
      } catch (err) {
        if (err instanceof SignatureError) throw signatureUnauthorized(err)
        throw err
      }
      req.principal = verified.principal!
      states.set(req, { signed: { req: signed, verified } })
      reply.headers(headersFor(await ctx.rateLimiter.hit(req.principal.keyId)))
      return
    }
    const key = presentedKey(req.headers)
    const metadata = `${origin}/.well-known/oauth-protected-resource/mcp`
    const principal = key ? ((await keys.verify(key)) ?? (await verifyAccessToken(ctx.db, key, ctx.clock.now()))) : null
    if (!principal) {
      const refused = key
        ? unauthorized('invalid or revoked API key or access token', true, metadata)
        : unauthorized('missing API key: send it as Authorization: Bearer <key>', false, metadata)
      if (req.method !== 'POST' || !hasBody(req)) throw refused
      states.set(req, { refused })
      return
    }
    req.principal = principal
    states.set(req, {})
    reply.headers(headersFor(await ctx.rateLimiter.hit(principal.keyId)))
  }
  const preParsing = async (req: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    const state = states.get(req) ?? {}
    const body = await readBody(payload, bodyLimit)
    try {
      if (state.signed) {
        await completeVerification(state.signed.req, state.signed.verified, body, verifier)
      } else {
        const json = parseJson(body)
        const required = signatureRequired(operationsOf(json), json, requiredFor)
        if (required) throw required
        if (state.refused) throw state.refused
      }
    } catch (err) {
      if (err instanceof SignatureError) throw signatureUnauthorized(err)
      throw err
    }
    return replay(body)
  }
  return { onRequest, preParsing }
}

/**
 * Answers are always plain JSON, never an SSE stream, so a client that accepts JSON (or says nothing)
 * is served even when it does not also list text/event-stream, which the SDK transport insists on.
 */
function acceptJson(raw: IncomingMessage): void {
  const accept = raw.headers.accept ?? ''
  if (accept.includes('application/json') && accept.includes('text/event-stream')) return
  if (accept && !/application\/json|application\/\*|\*\/\*/.test(accept)) return
  const value = 'application/json, text/event-stream'
  raw.headers.accept = value
  for (let i = raw.rawHeaders.length - 2; i >= 0; i -= 2) if (raw.rawHeaders[i]!.toLowerCase() === 'accept') raw.rawHeaders.splice(i, 2)
  raw.rawHeaders.push('Accept', value)
}

/** The origin clients reach us at: PUBLIC_URL, else the request's own. */
function baseUrl(ctx: AdcpContext, req: FastifyRequest): string {
  if (ctx.config.publicUrl) return ctx.config.publicUrl.replace(/\/+$/, '')
  return `${req.protocol}://${req.host}`
}

export const adcpFeature: Feature<AdcpContext> = {
  prefix: '',
  async routes(app: App, ctx: AdcpContext) {
    // Loaded here, not at import: worker and collector processes import the feature list too.
    const [{ buildServer }, { StreamableHTTPServerTransport }] = await Promise.all([
      import('./server.ts'),
      import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    ])
    const keys = createKeyVerifier(ctx.db)
    await keys.start()
    app.addHook('onClose', () => keys.stop())
    const { onRequest, preParsing } = gate(ctx, keys)
    await oauthRoutes(app, ctx, keys, (req) => baseUrl(ctx, req))

    for (const url of mcpPaths) {
      app.post(url, { onRequest, preParsing, schema: { hide: true } }, async (req, reply) => {
        const principal = req.principal!
        const server = buildServer({
          ctx,
          principal: async () => principal,
          baseUrl: baseUrl(ctx, req),
          requestHost: req.host,
          log: req.log,
        })
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
        // The transport writes the response itself; carry over what Fastify holds for it.
        reply.hijack()
        for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value)
        reply.raw.on('close', () => {
          void transport.close()
          void server.close()
        })
        acceptJson(req.raw)
        try {
          await server.connect(transport)
          await transport.handleRequest(req.raw, reply.raw, req.body)
        } catch (err) {
          req.log.error({ err }, 'MCP request failed')
          if (!reply.raw.headersSent) {
            reply.raw.writeHead(500, { 'content-type': 'application/json' })
            reply.raw.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }))
          }
        }
      })
      for (const method of ['GET', 'DELETE'] as const) {
        app.route({
          method,
          url,
          onRequest,
          schema: { hide: true },
          handler: async (_req, reply) => {
            reply.code(405).header('allow', 'POST')
            return {
              jsonrpc: '2.0',
              error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST' },
              id: null,
            }
          },
        })
      }
    }
  },
}
