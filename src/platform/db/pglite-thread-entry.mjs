// The embedded engine's worker thread starts here: tsx's loader is registered in the thread first
// (through its public `tsx/esm/api` export), so the thread's own code can be TypeScript.
import { register } from 'tsx/esm/api'

register()
await import('./pglite-thread.ts')
