// Runs every bench/*.bench.ts (or the ones named on the command line) one after another, each in its
// own process so one benchmark's heap and event loop never colour another's figures.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const dir = dirname(fileURLToPath(import.meta.url))
const wanted = process.argv.slice(2)
const all = readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort()
const chosen = wanted.length ? all.filter((f) => wanted.some((w) => f.includes(w))) : all
if (chosen.length === 0) {
  console.error(`no benchmark matches ${wanted.join(', ')}; have: ${all.join(', ')}`)
  process.exit(2)
}
let failed = 0
for (const file of chosen) {
  console.log(`\n=== ${file} ===`)
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(dir, file)], { stdio: 'inherit' })
  if (r.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
