import { useState } from 'preact/hooks'

import type { Session } from '../api.ts'
import { signIn } from '../api.ts'
import { base, navigate } from '../router.ts'
import { ErrorBox } from '../ui/common.tsx'
import { useAction } from '../ui/use-api.ts'

/** Where to go after signing in: only a path inside the console (never another site). */
function nextPath(): string {
  const next = new URLSearchParams(location.search).get('next')
  return next && next.startsWith(`${base}/`) && !next.startsWith('//') ? next : `${base}/`
}

export function SignIn(props: { onSignedIn: (s: Session) => void }) {
  const [key, setKey] = useState('')
  const action = useAction(signIn)
  return (
    <main class="sign-in" id="main">
      <form
        onSubmit={async (e) => {
          e.preventDefault()
          const s = await action.run(key)
          // The key leaves memory with the form: it is not kept anywhere in the browser.
          setKey('')
          if (s) {
            props.onSignedIn(s)
            navigate(nextPath(), true)
          }
        }}
      >
        <h1 id="page-title">Sign in to Curata Console</h1>
        <p>Paste your API key. It is exchanged for a session that ends after 12 hours or when you sign out; the key itself is not stored in this browser.</p>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          required
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
        />
        <ErrorBox error={action.error} />
        <button type="submit" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p class="muted">
          No key yet? An operator creates one with <code>npx curata keys create --name "Your company"</code>.
        </p>
      </form>
    </main>
  )
}
