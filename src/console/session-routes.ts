import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'

import type { AppContext } from '../platform/context.ts'
import type { App } from '../platform/http/app.ts'
import { ApiError } from '../platform/http/errors.ts'
import { errorResponses } from '../platform/http/schemas.ts'
import { verifyKey } from '../platform/keys/keys.ts'
import { createSession, csrfMatches, csrfTokenFor, deleteSession, findSession, readCookie, sessionCookie, sessionTtlMs } from '../platform/keys/sessions.ts'

const tags = ['console']

const Session = Type.Object(
  {
    client_id: Type.Integer(),
    client_name: Type.String(),
    csrf_token: Type.String({ description: 'send it as X-CSRF-Token with every write made with the session cookie' }),
    expires_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ConsoleSession' },
)

const SignInBody = Type.Object({ api_key: Type.String({ minLength: 1, maxLength: 200 }) }, { title: 'ConsoleSignIn' })

/** Secure when the user reaches us over HTTPS: directly, through a proxy that says so, or per PUBLIC_URL. */
function overHttps(req: FastifyRequest, ctx: AppContext): boolean {
  const forwarded = req.headers['x-forwarded-proto']
  const proto = typeof forwarded === 'string' ? forwarded.split(',', 1)[0]!.trim().toLowerCase() : null
  return req.protocol === 'https' || proto === 'https' || (ctx.config.publicUrl?.startsWith('https://') ?? false)
}

function setCookie(reply: FastifyReply, value: string, maxAgeSeconds: number, secure: boolean): void {
  reply.header('set-cookie', `${sessionCookie}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`)
}

/**
 * A sign-in posted from another site's page (login CSRF) is refused: a browser always sends Origin
 * on a POST, and it must name the host the request reached (as the client saw it: Host, a proxy's
 * X-Forwarded-Host, or PUBLIC_URL's host).
 */
function checkOrigin(req: FastifyRequest, ctx: AppContext): void {
  const origin = req.headers.origin
  if (origin === undefined) return
  let host: string | null = null
  try {
    host = new URL(origin).host
  } catch {
    host = null
  }
  const forwarded = req.headers['x-forwarded-host']
  const ours = [req.headers.host, typeof forwarded === 'string' ? forwarded.split(',', 1)[0]!.trim() : undefined]
  if (ctx.config.publicUrl) ours.push(new URL(ctx.config.publicUrl).host)
  if (host === null || !ours.includes(host)) throw new ApiError(403, 'forbidden', 'sign-in must come from the console itself')
}

async function sessionBody(ctx: AppContext, clientId: number, token: string, expiresAt: Date) {
  const { rows } = await ctx.db.query<{ name: string }>('SELECT name FROM clients WHERE id = $1', [clientId])
  return { client_id: clientId, client_name: rows[0]?.name ?? '', csrf_token: csrfTokenFor(token), expires_at: expiresAt.toISOString() }
}

/**
 * Sign-in and sign-out of the console: the only endpoints it has besides /v1. The key is read from
 * the body once, checked, and exchanged for a session cookie; it is never stored, echoed or logged.
 */
export function sessionRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/console/session',
    {
      schema: {
        tags,
        summary: 'Sign in to the console: exchange an API key for a session cookie (HttpOnly, SameSite=Lax, Secure over HTTPS)',
        security: [],
        body: SignInBody,
        response: { 200: Session, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (req, reply) => {
      checkOrigin(req, ctx)
      const principal = await verifyKey(ctx.db, req.body.api_key.trim())
      if (!principal) throw new ApiError(401, 'unauthorized', 'invalid or revoked API key')
      const { token, expiresAt } = await createSession(ctx.db, principal, ctx.clock.now())
      setCookie(reply, token, Math.floor(sessionTtlMs / 1000), overHttps(req, ctx))
      reply.header('cache-control', 'no-store')
      return sessionBody(ctx, principal.clientId, token, expiresAt)
    },
  )

  app.get(
    '/console/session',
    {
      schema: { tags, summary: 'The signed-in console session, with its CSRF token', security: [], response: { 200: Session, ...errorResponses(401) } },
    },
    async (req, reply) => {
      const token = readCookie(req.headers.cookie, sessionCookie)
      const session = token ? await findSession(ctx.db, token, ctx.clock.now()) : null
      if (!token || !session) throw new ApiError(401, 'unauthorized', 'not signed in')
      reply.header('cache-control', 'no-store')
      return sessionBody(ctx, session.clientId, token, session.expiresAt)
    },
  )

  app.delete(
    '/console/session',
    {
      schema: { tags, summary: 'Sign out: ends the session and clears its cookie', security: [], response: { 204: Type.Null(), ...errorResponses(403) } },
    },
    async (req, reply) => {
      const token = readCookie(req.headers.cookie, sessionCookie)
      if (token) {
        const presented = req.headers['x-csrf-token']
        if (!csrfMatches(token, typeof presented === 'string' ? presented : undefined)) {
          throw new ApiError(403, 'forbidden', 'sign-out needs the session CSRF token in the x-csrf-token header')
        }
        await deleteSession(ctx.db, token)
      }
      setCookie(reply, '', 0, overHttps(req, ctx))
      reply.code(204)
      return null
    },
  )
}
