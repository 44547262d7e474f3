// Prints the AdCP storyboard counts (passed / failed / skipped steps) of the capability-driven run
// and of each named storyboard, with the 3.1.19 bundle of fixtures/adcp and with @adcp/sdk's own,
// against the service started as `npm start` starts it over a 50-page index (embedded engine, or
// PostgreSQL with DATABASE_URL), and the failing steps. docs/adcp.md "Compliance runs".
// Run: node --import tsx scripts/adcp-storyboards.ts [storyboard id …]
import { namedStoryboards, runStoryboards, startSeededService } from '../test/adcp/compliance/harness.ts'

const only = process.argv.slice(2)
const target = await startSeededService(process.env.DATABASE_URL ?? null)
const out: string[] = []
try {
  for (const bundle of ['3.1.19', 'sdk'] as const) {
    for (const id of only.length ? only : [undefined, ...namedStoryboards]) {
      try {
        const r = await runStoryboards(target, bundle, id)
        out.push(`${bundle}\t${id ?? '(capability-driven)'}\tpassed=${r.passed} failed=${r.failed} skipped=${r.skipped}`)
        for (const f of r.failures) out.push(`    ${f}`)
      } catch (err) {
        out.push(`${bundle}\t${id}\tnot in this bundle (${(err as Error).message.slice(0, 80)}…)`)
      }
    }
  }
} finally {
  await target.stop()
}
console.log(out.join('\n'))
process.exit(0)
