import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * One process at a time may open an embedded data dir: two PGlite instances on one directory
 * corrupt it. The lock is a file holding the owner's pid. It never exists empty: the pid is written
 * to a private temporary file first, which link() then publishes under the lock's name — atomic,
 * and refused when the name exists.
 *
 * A lock whose pid is gone (its owner was killed) is stale and must be removed, but POSIX has no
 * "remove if still this file": a process that saw the stale lock could remove the live one another
 * process has published since. So only the holder of a second, short-lived lock (the breaker,
 * published the same way) removes a stale lock, after reading it again: while it holds the breaker,
 * a stale lock can change only by its own hand, so what it read is what it removes. A breaker
 * whose holder died mid-break is itself taken away by renaming that very inode (the rename check
 * would lose to a third process only in an instant after a crash inside a break).
 */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    /** the breaker another process holds, when that is what stopped us */
    readonly breaker?: string,
  ) {
    super(
      pid > 0
        ? `data dir ${dataDir} is in use by another curata process (pid ${pid}); stop it first or use another DATA_DIR`
        : breaker
          ? `data dir ${dataDir} is in use by another curata process (it holds ${breaker} while taking over a stale lock); if no curata process runs there, remove that file`
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

/** True when no live process holds this lock (a dead pid, or no pid at all). */
function stale(held: Held): boolean {
  return held.pid !== process.pid && !(held.pid > 0 && alive(held.pid))
}

/** Removes the file if it is still the stale one seen (same inode), and nothing else. */
function removeStale(file: string, seen: Held): void {
  const grave = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    renameSync(file, grave)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return // another process took it away first
    throw err
  }
  const got = readLock(grave)
  // Inode and pid: a freed inode may be reused by the next process's lock file.
  if (got !== null && (got.ino !== seen.ino || got.pid !== seen.pid)) {
    // Another process replaced it in between: give it back (link() never overwrites).
    try {
      linkSync(grave, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    }
  }
  rmSync(grave, { force: true })
}

/**
 * Removes the lock if it is stale, holding the breaker while it reads and removes it. False when
 * another process is breaking it: the caller waits and tries again.
 */
function breakStale(file: string, tmp: string): boolean {
  const breaker = breakerFile(file)
  if (!tryPublish(tmp, breaker)) {
    const other = readLock(breaker)
    if (other !== null && stale(other)) removeStale(breaker, other) // its holder died mid-break
    return false
  }
  const mine = statSync(tmp).ino
  try {
    // By inode too: should a crash inside another break ever let two hold the breaker, neither removes
    // a lock the other has published since.
    const held = readLock(file)
    if (held !== null && stale(held)) removeStale(file, held)
    return true
  } finally {
    if (readLock(breaker)?.ino === mine) rmSync(breaker, { force: true })
  }
}

function breakerFile(file: string): string {
  return `${file}.break`
}

/** Blocks the thread for a moment: opening a data dir is synchronous, and a break takes microseconds. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const file = lockFile(dataDir)
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  writeFileSync(tmp, String(process.pid), { mode: 0o600 })
  try {
    for (let attempt = 0; attempt < 200; attempt++) {
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
      if (!stale(held)) throw new DataDirLockedError(dataDir, held.pid)
      if (!breakStale(file, tmp)) pause(5) // another process is breaking it
    }
    // Another process has held the breaker all along: a live process taking the stale lock over, or a
    // pid reused since its holder died. Name the file, so an operator who knows no process runs can remove it.
    throw new DataDirLockedError(dataDir, -1, breakerFile(file))
  } finally {
    rmSync(tmp, { force: true })
  }
}
