/** The AdCP 3.1.19 compliance bundle vendored in fixtures/adcp, unpacked once per process. */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

let unpacked: string | null = null
/** The directory holding `compliance/3.1.19` and `schemas/3.1.19`. */
export function bundle319(): string {
  if (!unpacked) {
    const dir = mkdtempSync(join(tmpdir(), 'adcp-3.1.19-'))
    execFileSync('tar', ['xzf', join(import.meta.dirname, '../../../fixtures/adcp/adcp-3.1.19-schemas-and-compliance.tar.gz'), '-C', dir])
    unpacked = dir
  }
  return unpacked
}

/** The request-signing conformance vectors of the bundle. */
export const signingVectorsDir = () => join(bundle319(), 'compliance/3.1.19/test-vectors/request-signing')
