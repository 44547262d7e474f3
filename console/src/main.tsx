import './styles.css'

import type { ComponentChildren } from 'preact'
import { render } from 'preact'
import { useEffect, useErrorBoundary, useState } from 'preact/hooks'

import type { Session } from './api.ts'
import { loadSession, setSignedOutHandler, signOut } from './api.ts'
import { base, interceptLinks, match, navigate, useLocation } from './router.ts'
import { ActivationDetail, ActivationList, ActivationNew } from './screens/activations.tsx'
import { Home } from './screens/home.tsx'
import { NotFound } from './screens/not-found.tsx'
import { PerformanceReports } from './screens/performance.tsx'
import { PixelCampaign, PixelCampaigns } from './screens/pixel.tsx'
import { PublisherReportScreen, PublisherReports } from './screens/publisher.tsx'
import { ScrapeJobScreen, Scraping } from './screens/scraping.tsx'
import { SegmentDetail } from './screens/segment-detail.tsx'
import { SegmentList, SegmentNew } from './screens/segments.tsx'
import { SignIn } from './screens/sign-in.tsx'
import { Usage } from './screens/usage.tsx'
import { ErrorBox } from './ui/common.tsx'

type Screen = (p: Record<string, string>) => preact.JSX.Element

const routes: [string, Screen][] = [
  ['/', () => <Home />],
  ['/segments', () => <SegmentList />],
  ['/segments/new', () => <SegmentNew />],
  ['/segments/:id', (p) => <SegmentDetail id={p.id!} />],
  ['/activations', () => <ActivationList />],
  ['/activations/new', () => <ActivationNew />],
  ['/activations/:id', (p) => <ActivationDetail id={p.id!} />],
  ['/reports', () => <PerformanceReports />],
  ['/pixel', () => <PixelCampaigns />],
  ['/pixel/:id', (p) => <PixelCampaign id={p.id!} />],
  ['/publisher', () => <PublisherReports />],
  ['/publisher/:id', (p) => <PublisherReportScreen id={p.id!} />],
  ['/scraping', () => <Scraping />],
  ['/scraping/:id', (p) => <ScrapeJobScreen id={p.id!} />],
  ['/usage', () => <Usage />],
]

const nav: [string, string][] = [
  ['/', 'Overview'],
  ['/segments', 'Segments'],
  ['/activations', 'Activations'],
  ['/reports', 'Performance'],
  ['/pixel', 'Pixel'],
  ['/publisher', 'Publisher reports'],
  ['/scraping', 'Scraping'],
  ['/usage', 'Keys & usage'],
]

function signInPath(): string {
  const here = location.pathname + location.search
  return `${base}/sign-in${here.startsWith(`${base}/`) && !here.startsWith(`${base}/sign-in`) ? `?next=${encodeURIComponent(here)}` : ''}`
}

/** A screen that fails while rendering shows what happened instead of a blank page. */
function Boundary(props: { children: ComponentChildren }) {
  const [error, reset] = useErrorBoundary()
  if (!error) return <>{props.children}</>
  return (
    <div class="page">
      <ErrorBox error={error instanceof Error ? error : new Error(String(error))} />
      <button type="button" class="secondary" onClick={reset}>
        Try again
      </button>
    </div>
  )
}

function App() {
  const { path } = useLocation()
  const [session, setSession] = useState<Session | null | undefined>(undefined)
  const [error, setError] = useState<Error | null>(null)

  useEffect(() => {
    setSignedOutHandler(() => {
      setSession(null)
      navigate(signInPath(), true)
    })
    loadSession().then(setSession, (e: Error) => setError(e))
  }, [])

  // Focus the new screen's heading after navigation, so keyboard and screen-reader users land on it.
  useEffect(() => {
    document.getElementById('page-title')?.focus({ preventScroll: true })
  }, [path])

  if (error) return <ErrorBox error={error} />
  if (session === undefined) return null
  // Already signed in: the sign-in page has nothing to do.
  if (path === '/sign-in' && session) {
    navigate(`${base}/`, true)
    return null
  }
  if (path === '/sign-in' || session === null) {
    if (path !== '/sign-in') navigate(signInPath(), true)
    return <SignIn onSignedIn={setSession} />
  }

  let screen: preact.JSX.Element = <NotFound />
  for (const [pattern, render] of routes) {
    const params = match(pattern, path)
    if (params) {
      screen = render(params)
      break
    }
  }
  const current = (href: string) => (href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`))
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={`${base}/`}>
          Curata Console
        </a>
        <span class="who" data-testid="client-name">
          {session.client_name} <span class="muted">(client {session.client_id})</span>
        </span>
        <button
          type="button"
          class="secondary"
          onClick={async () => {
            await signOut().catch(() => {})
            setSession(null)
            navigate(`${base}/sign-in`, true)
          }}
        >
          Sign out
        </button>
      </header>
      <nav class="side" aria-label="Main">
        <ul>
          {nav.map(([href, label]) => (
            <li key={href}>
              <a href={`${base}${href === '/' ? '/' : href}`} aria-current={current(href) ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Boundary key={path}>{screen}</Boundary>
      </main>
    </div>
  )
}

const root = document.getElementById('app')!
interceptLinks(root)
render(<App />, root)
