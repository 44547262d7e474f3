import type { FastifyReply } from 'fastify'

import type { AppContext } from '../platform/context.ts'
import type { Feature } from '../platform/http/app.ts'
import { findSession, readCookie, sessionCookie } from '../platform/keys/sessions.ts'
import type { Asset } from './assets.ts'
import { loadAssets } from './assets.ts'
import { securityHeaders } from './headers.ts'
import { sessionRoutes } from './session-routes.ts'

const notBuilt = 'The console is not built. Run `npm run build:console` (npm install runs it) and restart.\n'

function send(reply: FastifyReply, asset: Asset, ifNoneMatch: string | undefined) {
  reply.headers(securityHeaders).header('etag', asset.etag)
  // index.html is revalidated every time (it names the current hashed bundles); bundles are kept.
  reply.header('cache-control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
  if (ifNoneMatch === asset.etag) return reply.code(304).send()
  return reply.type(asset.type).send(asset.body)
}

/**
 * The Curata Console at /console: the built single-page app, and its sign-in/out endpoints. Every
 * screen is the same index.html; without a live session a screen redirects to the sign-in page.
 * The app reads and writes data only through the public /v1 API, authenticated by the session cookie.
 */
export const consoleFeature: Feature = {
  prefix: '',
  routes(app, ctx: AppContext) {
    sessionRoutes(app, ctx)
    const assets = loadAssets()

    app.get('/console', { schema: { hide: true } }, async (_req, reply) => reply.redirect('/console/', 302))
    app.get<{ Params: { '*': string } }>('/console/*', { schema: { hide: true } }, async (req, reply) => {
      if (!assets) return reply.code(503).headers(securityHeaders).type('text/plain; charset=utf-8').send(notBuilt)
      const path = req.params['*']
      const file = assets.get(path)
      const inm = req.headers['if-none-match']
      if (file && path !== 'index.html') return send(reply, file, inm)
      if (path.startsWith('assets/') || /\.\w+$/.test(path)) {
        return reply.code(404).headers(securityHeaders).type('text/plain; charset=utf-8').send('not found\n')
      }
      if (path !== 'sign-in') {
        const token = readCookie(req.headers.cookie, sessionCookie)
        const session = token ? await findSession(ctx.db, token, ctx.clock.now()) : null
        if (!session) return reply.redirect(`/console/sign-in?next=${encodeURIComponent(`/console/${path}`)}`, 302)
      }
      return send(reply, assets.get('index.html')!, inm)
    })
  },
}
