/**
 * A periodic pass over the index (reclassification, sentence vectors): every minute it works
 * through pages in batches, each committed on its own so a restart continues where it stopped, until
 * a batch comes back short or the run has taken its share of the worker (20 s). Each run returns
 * how many pages it did and what is left.
 */
import type { JobContext, JobHandler } from '../../platform/jobs/handler.ts'
import type { JobKind, KindsWithPayload, Periodic } from '../../platform/jobs/kinds.ts'

const RUN_BUDGET_MS = 20_000
const EVERY_MS = 60_000

export interface PassSpec<K extends KindsWithPayload<Periodic>> {
  kind: K
  /** pages a batch asks for: a shorter batch means nothing is left */
  batch: number
  /** does one batch under the job's lease; returns how many pages it took */
  step(job: JobContext): Promise<number>
  /** the run's result: the count done under this name, then what is left */
  doneAs: string
  progress(): Promise<Record<string, number>>
}

export function backgroundPass<K extends KindsWithPayload<Periodic> & JobKind>(spec: PassSpec<K>): JobHandler<K> {
  return {
    kind: spec.kind,
    everyMs: EVERY_MS,
    maxAttempts: 3,
    async run(_payload, job) {
      const started = job.clock.now().getTime()
      let done = 0
      for (;;) {
        job.signal.throwIfAborted()
        const n = await spec.step(job)
        done += n
        if (n < spec.batch || job.clock.now().getTime() - started > RUN_BUDGET_MS) break
      }
      return { [spec.doneAs]: done, ...(await spec.progress()) }
    },
  }
}
