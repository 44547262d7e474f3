import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/**
 * One process at a time may open an embedded data dir: two PGlite instances on one directory
 * corrupt it. The lock is a file created with O_EXCL holding the owner's pid; a lock whose pid is
 * gone (the owner was killed) is stale and taken over.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`data dir ${dataDir} is in use by another curata process (pid ${pid}); stop it first or use another DATA_DIR`)
  }
}

export interface DataDirLock {
  release(): void
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function lockFile(dataDir: string): string {
  return join(dataDir, 'curata.lock')
}

/** Returns the pid holding the lock, or null when the data dir is free. */
export function lockOwner(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(lockFile(dataDir), 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null
  } catch {
    return null
  }
}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = lockFile(dataDir)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      let released = false
      return {
        release() {
          if (released) return
          released = true
          rmSync(file, { force: true })
        },
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const owner = lockOwner(dataDir)
      if (owner !== null) throw new DataDirLockedError(dataDir, owner)
      rmSync(file, { force: true }) // stale: its owner died without cleaning up
    }
  }
  throw new DataDirLockedError(dataDir, -1)
}
