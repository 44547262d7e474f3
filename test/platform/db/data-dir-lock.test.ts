import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DataDirLockedError, lockDataDir, lockFile, lockOwner } from '../../../src/platform/db/data-dir-lock.ts'

const fixture = fileURLToPath(new URL('./fixtures/lock-contender.ts', import.meta.url))

interface Contender {
  child: ChildProcessWithoutNullStreams
  /** Sends a command and resolves with the next line it prints. */
  send(cmd: string): Promise<string>
}

async function contender(dataDir: string): Promise<Contender> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, dataDir], { stdio: 'pipe' })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async () => {
    const r = await lines.next()
    if (r.done) throw new Error(`contender exited: ${child.exitCode}`)
    return r.value
  }
  expect(await next()).toBe('ready')
  return {
    child,
    send(cmd) {
      const line = next()
      child.stdin.write(cmd + '\n')
      return line
    },
  }
}

/** The pid of a process that has exited: what a lock left by a killed server holds. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'])
  return Number(r.stdout.toString())
}

describe('data-dir lock', () => {
  it('never leaves the lock file without its pid, and releases only its own lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curata-lock-'))
    const lock = lockDataDir(dir)
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid))
    expect(lockOwner(dir)).toBe(process.pid)
    expect(() => lockDataDir(dir)).toThrow(DataDirLockedError)
    lock.release()
    expect(lockOwner(dir)).toBeNull()
    // No temporary files are left behind.
    expect(readdirSync(dir)).toEqual([])
  })

  it('takes over a lock whose pid is gone, whatever it holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curata-lock-'))
    for (const content of [String(deadPid()), '', 'garbage']) {
      writeFileSync(lockFile(dir), content)
      const lock = lockDataDir(dir)
      expect(lockOwner(dir)).toBe(process.pid)
      lock.release()
    }
  })

  it('takes away a breaker left by a process killed while breaking a stale lock', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curata-lock-'))
    writeFileSync(lockFile(dir), String(deadPid()))
    writeFileSync(`${lockFile(dir)}.break`, String(deadPid()))
    const lock = lockDataDir(dir)
    expect(lockOwner(dir)).toBe(process.pid)
    lock.release()
    expect(readdirSync(dir)).toEqual([])
  })

  it('waits for a live process breaking a stale lock, and does not break a live one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curata-lock-'))
    // A breaker held by a live process that never finishes: the stale lock is not ours to remove.
    writeFileSync(lockFile(dir), String(deadPid()))
    writeFileSync(`${lockFile(dir)}.break`, String(process.ppid))
    expect(() => lockDataDir(dir)).toThrow(/holds .*curata\.lock\.break.*remove that file/)
    expect(readFileSync(lockFile(dir), 'utf8')).not.toBe(String(process.pid))
  })

  describe('between processes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'curata-lock-'))
    const contenders: Contender[] = []
    beforeAll(async () => {
      contenders.push(...(await Promise.all([1, 2, 3, 4].map(() => contender(dir)))))
    })
    afterAll(() => {
      for (const c of contenders) c.child.kill('SIGKILL')
    })

    it('lets exactly one of several processes opening at once win, over a free or a stale lock', async () => {
      for (let round = 0; round < 60; round++) {
        if (round % 2 === 1) writeFileSync(lockFile(dir), String(deadPid())) // a killed server's lock
        const results = await Promise.all(contenders.map((c) => c.send('try')))
        const winners = contenders.filter((_c, i) => results[i] === 'won')
        expect(winners, `round ${round}: ${results.join(' | ')}`).toHaveLength(1)
        for (const r of results.filter((x) => x !== 'won')) expect(r).toMatch(/^lost .*in use by another curata process/)
        expect(lockOwner(dir)).toBe(winners[0]!.child.pid)
        expect(await winners[0]!.send('release')).toBe('released')
        expect(lockOwner(dir)).toBeNull()
      }
      expect(readdirSync(dir)).toEqual([])
    })

    it('takes over the lock of a holder killed with SIGKILL', async () => {
      const holder = contenders.pop()!
      expect(await holder.send('try')).toBe('won')
      holder.child.kill('SIGKILL')
      await new Promise((r) => holder.child.once('exit', r))
      expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(holder.child.pid))
      expect(lockOwner(dir)).toBeNull()
      const lock = lockDataDir(dir)
      expect(lockOwner(dir)).toBe(process.pid)
      lock.release()
    })
  })
})
