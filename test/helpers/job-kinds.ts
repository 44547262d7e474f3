// The job kinds the platform's own tests enqueue, declared as features declare theirs.
import type { Periodic } from '../../src/platform/jobs/kinds.ts'

declare module '../../src/platform/jobs/kinds.ts' {
  interface JobPayloads {
    'test.effect': { sleepMs: number }
    'test.every': Periodic
    'test.flaky': Periodic
    'test.long': Periodic
    'test.metrics': Periodic
    'test.never': Periodic
    'test.nobody-handles-this': Periodic
    'test.ok': { n: number }
    'test.batch': { n: number }
    'test.perm': Periodic
    'test.single': Periodic
    'test.stuck': Periodic
  }
}
