import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * One process at a time may open an embedded data dir: two PGlite instances on one directory
 * corrupt it. The lock is a file holding the owner's pid. It never exists empty: the pid is written
 * to a private temporary file first, which link() then publishes under the lock's name — atomic,
 * and refused when the name exists. A lock whose pid is gone (its owner was killed) is stale; it is
 * taken away with rename() to a private name, and only if the file renamed is the very one found
 * stale (same inode) — had another process replaced it meanwhile with a live lock, that lock is put
 * back untouched.
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      pid > 0
        ? `data dir ${dataDir} is in use by another curata process (pid ${pid}); stop it first or use another DATA_DIR`
        : `data dir ${dataDir} is in use by another curata process; stop it first or use another DATA_DIR`,
    )
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

interface Held {
  pid: number
  ino: number
}

/** The lock file's pid and inode, or null when there is none. */
function readLock(file: string): Held | null {
  try {
    const ino = statSync(file).ino
    const text = readFileSync(file, 'utf8').trim()
    const pid = /^\d+$/.test(text) ? Number(text) : 0
    return { pid, ino }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

/** Returns the pid holding the lock, or null when the data dir is free. */
export function lockOwner(dataDir: string): number | null {
  const held = readLock(lockFile(dataDir))
  return held && held.pid > 0 && alive(held.pid) ? held.pid : null
}

/** link() the pid file under the lock's name: true when we now hold the lock. */
function tryPublish(tmp: string, file: string): boolean {
  try {
    linkSync(tmp, file)
    return true
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw err
  }
}

/** Removes the lock file if it is still the stale one seen (same inode), and nothing else. */
function removeStale(file: string, stale: Held): void {
  const grave = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    renameSync(file, grave)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return // another process took it away first
    throw err
  }
  if (statSync(grave).ino !== stale.ino) {
    // Another process broke the stale lock and published its own in between: give it back. (Only
    // a third process publishing in the instant the name was free could beat the restore; link()
    // never overwrites, so that one would keep the lock.)
    try {
      linkSync(grave, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  rmSync(grave, { force: true })
}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = lockFile(dataDir)
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(tmp, String(process.pid), { mode: 0o600 })
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      if (tryPublish(tmp, file)) {
        const mine = statSync(tmp).ino
        let released = false
        return {
          release() {
            if (released) return
            released = true
            // Only our own lock: never remove one another process holds.
            if (readLock(file)?.ino === mine) rmSync(file, { force: true })
          },
        }
      }
      const held = readLock(file)
      if (held === null) continue // released between our link() and our read
      if (held.pid > 0 && held.pid !== process.pid && alive(held.pid)) throw new DataDirLockedError(dataDir, held.pid)
      if (held.pid === process.pid) throw new DataDirLockedError(dataDir, held.pid)
      removeStale(file, held) // its owner died without cleaning up
    }
    throw new DataDirLockedError(dataDir, -1)
  } finally {
    rmSync(tmp, { force: true })
  }
}
