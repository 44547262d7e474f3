import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { createServer } from 'node:http'

import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import Fastify from 'fastify'
import type { HTTPMethod } from 'find-my-way'
import FindMyWay from 'find-my-way'
import type { AppContext } from '../context.ts'
import { createKeyVerifier } from '../keys/key-cache.ts'
import type { Principal } from '../keys/keys.ts'
import { findSession } from '../keys/sessions.ts'
import { webhookOpenApi } from '../webhooks/openapi.ts'
import { authenticate } from './auth.ts'
import { ApiError, isClientDataException, toApiError } from './errors.ts'
import { idempotency } from './idempotency.ts'
import { headersFor } from './rate-limit.ts'
import { ErrorBody } from './schemas.ts'
import { findRefusedInput } from './text-input.ts'
import { validatorCompiler } from './validation.ts'

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null
  }
  interface FastifyContextConfig {
    /** Routes under /v1 that need no API key (the OpenAPI document). */
    public?: boolean
    /**
     * The handler deals with text no database can store in its own way, so the platform's check of
     * request text does not apply: `true` for the whole request (the pixel collector answers a GIF
     * whatever it gets), or the dotted path of the one value the handler checks itself (a scrape
     * job reports an unstorable entry of `body.urls` as an invalid URL instead of refusing the batch).
     */
    rawInput?: true | string
  }
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>

/**
 * A hot path answered on the raw node:http request, ahead of Fastify on the same port (no routing,
 * hooks or body parsing): returns true when it answered, false to hand the request to Fastify.
 */
export type RawHandler = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * A feature's routes: a Fastify plugin registered under its prefix with the shared context.
 * `front` mounts a RawHandler; a feature that buffers work flushes it in an onClose hook, which
 * runs after the server has stopped taking requests.
 */
export interface Feature<C extends AppContext = AppContext> {
  prefix: string
  /** `ctx` is the feature's own context type: the platform's plus the services the feature needs. */
  routes(app: App, ctx: C, front: (handler: RawHandler) => void): Promise<void> | void
}

export interface BuildAppOptions<C extends AppContext> {
  /** The process logger (pino); omitted = no request logging (tests). */
  logger?: FastifyBaseLogger
  features?: Feature<C>[]
}

const requestIdPattern = /^[\w.-]{1,64}$/

export async function buildApp<C extends AppContext>(ctx: C, opts: BuildAppOptions<C> = {}): Promise<App> {
  const front: RawHandler[] = []
  const app = Fastify({
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    requestTimeout: 120_000,
    // Our own 503 below, so that it has the catalog's body like every other error.
    return503OnClosing: false,
    // Fastify's own server, with the features' raw handlers consulted first.
    serverFactory: (handler, options) => {
      const server = createServer((req, res) => {
        for (let i = 0; i < front.length; i++) if (front[i]!(req, res)) return
        handler(req, res)
      })
      // The timeouts Fastify sets on a server it creates itself (its options, defaults applied).
      const o = options as unknown as { keepAliveTimeout: number; requestTimeout: number; connectionTimeout: number }
      server.keepAliveTimeout = o.keepAliveTimeout
      server.requestTimeout = o.requestTimeout
      server.setTimeout(o.connectionTimeout)
      return server
    },
    // A path that is not valid percent-encoding, or a path parameter beyond maxParamLength, fails
    // in the router before any hook: answer it in the catalog's format too.
    frameworkErrors: (err, req, reply) => {
      const e = toApiError(err)
      const r = reply as unknown as { code(n: number): { header(k: string, v: string): { send(b: unknown): unknown } } }
      void r.code(e.status).header('x-request-id', req.id).send({ error: e.code, message: e.message })
    },
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID()
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App

  app.setValidatorCompiler(validatorCompiler([ErrorBody]))
  app.addSchema(ErrorBody)
  app.removeContentTypeParser('text/plain')
  app.decorateRequest('principal', null)

  // A second router that only knows which paths exist, so an unknown method on a known path is a
  // 405 with Allow rather than a 404.
  const known = FindMyWay()
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat() as HTTPMethod[]) {
      if (method === 'HEAD' || known.find(method, route.url)) continue
      known.on(method, route.url, () => {})
    }
  })

  // While closing, requests still arriving on open connections are shed with 503 (a load balancer
  // retries them elsewhere); in-flight ones finish.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })

  const limiter = ctx.rateLimiter
  const keys = createKeyVerifier(ctx.db)
  await keys.start()
  app.addHook('onClose', () => keys.stop())
  const sessions = (token: string) => findSession(ctx.db, token, ctx.clock.now())
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id)
    if (closing) {
      throw new ApiError(503, 'service_unavailable', 'the server is shutting down; retry the request', undefined, {
        connection: 'close',
        'retry-after': '1',
      })
    }
    const path = req.url.split('?', 1)[0]!
    const isV1 = path === '/v1' || path.startsWith('/v1/')
    if (!isV1 || req.routeOptions.config.public) return
    req.principal = await authenticate(keys, req, sessions)
    const state = await limiter.hit(req.principal.keyId)
    reply.headers(headersFor(state))
  })

  // Text no database can store (U+0000, lone surrogates) and bodies nested deeper than any request
  // needs are refused here for every route, in path params, query and body alike, before any feature
  // sees them.
  app.addHook('preValidation', async (req) => {
    const raw = req.routeOptions.config.rawInput
    if (raw === true) return
    const bad = findRefusedInput(req.params, 'path', raw) ?? findRefusedInput(req.query, 'query', raw) ?? findRefusedInput(req.body, 'body', raw)
    if (bad) throw new ApiError(400, 'invalid_request', `${bad.path} ${bad.problem}`, [{ path: bad.path, message: bad.problem }])
  })

  const idem = idempotency(ctx.db)
  app.decorateRequest('idempotency', null)
  app.addHook('preHandler', idem.preHandler)
  app.addHook('onSend', idem.onSend)

  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched'
    ctx.metrics.observeRequest(route, req.method, reply.statusCode, reply.elapsedTime / 1000)
  })

  app.setErrorHandler(async (err, req, reply) => {
    const e = toApiError(err)
    if (e.status >= 500) req.log.error({ err }, 'request failed')
    // Answered as the client's fault, but logged whole: if the value was ours, this is a bug to fix.
    else if (isClientDataException(err)) req.log.warn({ err }, 'database rejected a request value')
    reply.code(e.status).headers(e.headers ?? {})
    return { error: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) }
  })

  app.setNotFoundHandler(async (req) => {
    const path = req.url.split('?', 1)[0]!
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((m) => known.find(m, path))
    if (allowed.length) {
      throw new ApiError(405, 'method_not_allowed', `${req.method} is not allowed here; use ${allowed.join(', ')}`, undefined, {
        allow: allowed.join(', '),
      })
    }
    throw new ApiError(404, 'not_found', `no route ${req.method} ${path}`)
  })

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Curata API',
        version: '1.0.0',
        description: 'Contextual segments, deal activation, pixel bot reports, content index. Errors: docs/errors.md.',
      },
      components: { securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
      security: [{ ApiKey: [] }],
      webhooks: webhookOpenApi(),
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (json.$id as string) || `def-${i}` },
  })
  await app.register(swaggerUi, { routePrefix: '/docs' })

  app.get('/v1/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger())

  for (const feature of opts.features ?? []) {
    await app.register(async (scope) => feature.routes(scope as App, ctx, (h) => front.push(h)), { prefix: feature.prefix })
  }
  return app
}
