/** Polls until check() is true; fails the test with a clear message after timeoutMs. */
export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/**
 * Runs `work` while `worker` polls the queue, and stops the worker whatever happens: a wait that times
 * out must not leave it polling into the next test.
 */
export async function whileWorking<T>(worker: { start(): Promise<void>; stop(): Promise<void> }, work: () => Promise<T>): Promise<T> {
  await worker.start()
  try {
    return await work()
  } finally {
    await worker.stop()
  }
}
