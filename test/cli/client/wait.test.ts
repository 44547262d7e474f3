// waitUntil: the announcement of what is waited for comes only once Ctrl-C is handled.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { waitUntil } from '../../../src/cli/client/wait.ts'

afterEach(() => vi.restoreAllMocks())

describe('waitUntil', () => {
  it('prints the announcement after its SIGINT handler is installed, and removes the handler when done', async () => {
    const before = process.listenerCount('SIGINT')
    const seen: { text: string; listeners: number }[] = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      seen.push({ text: String(chunk), listeners: process.listenerCount('SIGINT') })
      return true
    })
    let polls = 0
    const result = await waitUntil({
      announce: 'scrape job 7: 3 URLs (0 invalid)',
      label: 'scrape job 7',
      resume: 'curata scrape --job 7 --wait',
      intervalMs: 1,
      poll: async () => ++polls,
      finished: (n) => n >= 2,
    })
    expect(result).toBe(2)
    const line = seen.find((s) => s.text.includes('scrape job 7: 3 URLs'))
    expect(line?.listeners).toBe(before + 1)
    expect(process.listenerCount('SIGINT')).toBe(before)
  })

  it('prints nothing of its own without an announcement', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    await waitUntil({ label: 'x', resume: 'y', intervalMs: 1, poll: async () => 1, finished: () => true })
    expect(write).not.toHaveBeenCalled()
  })
})
