// Runs every bench/*.bench.ts (or the ones named on the command line, in the order named) one after
// another, each in its own process so one benchmark's heap and event loop never colour another's
// figures. With no names, the HTTP benchmark runs first (the headline figure), then the
// rest alphabetically.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = dirname(fileURLToPath(import.meta.url))
// Names pick benchmarks; flags (`--verbose`) are passed on to each one.
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('--'))
const flags = process.argv.slice(2).filter((a) => a.startsWith('--'))
const first = ['http.bench.ts']
const all = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort((a, b) => Number(first.includes(b)) - Number(first.includes(a)) || a.localeCompare(b))
const chosen = wanted.length ? [...new Set(wanted.flatMap((w) => all.filter((f) => f.includes(w))))] : all
if (chosen.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ')}; have: ${all.join(', ')}`)
  process.exit(2)
}
let failed = 0
for (const file of chosen) {
  console.log(`\n=== ${file} ===`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file), ...flags], { stdio: 'inherit' })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
