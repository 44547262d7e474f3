import { base } from '../router.ts'
import { Page } from '../ui/common.tsx'

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>There is no console page at this address.</p>
      <p>
        <a href={`${base}/`}>Back to the overview</a>
      </p>
    </Page>
  )
}
