import { useEffect, useState } from 'preact/hooks'

/**
 * A small history-API router: every screen has a real URL under /console/ (the server answers each
 * with the same page), links are ordinary <a href> so keyboard, middle-click and "copy link" work.
 */
export const base = '/console'

const listeners = new Set<() => void>()

export function navigate(to: string, replace = false): void {
  if (replace) history.replaceState(null, '', to)
  else history.pushState(null, '', to)
  for (const fn of listeners) fn()
  window.scrollTo(0, 0)
}

window.addEventListener('popstate', () => {
  for (const fn of listeners) fn()
})

/** The current location (path under /console and query), re-rendering on navigation. */
export function useLocation(): { path: string; query: URLSearchParams } {
  const [, setTick] = useState(0)
  useEffect(() => {
    const fn = () => setTick((n) => n + 1)
    listeners.add(fn)
    return () => {
      listeners.delete(fn)
    }
  }, [])
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) || '/' : location.pathname
  return { path: path.length > 1 ? path.replace(/\/$/, '') : path, query: new URLSearchParams(location.search) }
}

/** Matches `/segments/:id` against a path; params are decoded strings. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/')
  const s = path.split('/')
  if (p.length !== s.length) return null
  const params: Record<string, string> = {}
  for (let i = 0; i < p.length; i++) {
    const part = p[i]!
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(s[i]!)
    else if (part !== s[i]) return null
  }
  return params
}

/** Same-origin link clicks go through the router instead of reloading the page. */
export function interceptLinks(root: HTMLElement): void {
  root.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    const a = (e.target as Element).closest('a')
    if (!a || a.target || a.hasAttribute('download')) return
    const url = new URL(a.href, location.href)
    if (url.origin !== location.origin || !url.pathname.startsWith(`${base}/`)) return
    // An in-page anchor (the skip link) is the browser's to follow.
    if (url.hash && url.pathname === location.pathname) return
    e.preventDefault()
    navigate(url.pathname + url.search)
  })
}
