#!/usr/bin/env node
// The `curata` command. The service is TypeScript run through tsx's loader, so there is no build step
// between a clone and `npm start`.
import { register } from 'tsx/esm/api'

register()
await import('../src/cli/main.ts')
