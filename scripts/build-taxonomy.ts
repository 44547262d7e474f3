// Builds src/content/taxonomy/iab-content-3.1.json from the IAB Tech Lab TSV (CC BY 3.0).
// Run: node --import tsx scripts/build-taxonomy.ts [path/to/Content Taxonomy 3.1.tsv]
// The product only reads the generated JSON; fixtures/iab is a build-time input, never a run-time one.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const source = resolve(process.argv[2] ?? join(root, 'fixtures/iab/Content Taxonomy 3.1.tsv'))
const target = join(root, 'src/content/taxonomy/iab-content-3.1.json')

// Unique IDs that are not integers get a stable synthetic id in a range IAB has never used
// (its numeric ids stop below 2000), so integer ids stay unique across future taxonomy edits.
const SYNTHETIC_BASE = 1_000_000

interface Row {
  unique_id: string
  parent: string
  name: string
  tiers: string[]
  extension: string
}

function parse(tsv: string): Row[] {
  const lines = tsv.split(/\r?\n/)
  if (!lines[1]?.startsWith('Unique ID\tParent\tName\tTier 1')) {
    throw new Error(`unexpected header in ${source}: ${lines[1] ?? '(none)'}`)
  }
  // Row 1 is a group banner and row 2 the column names.
  return lines
    .slice(2)
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const c = line.split('\t').map((v) => v.trim())
      return {
        unique_id: c[0] ?? '',
        parent: c[1] ?? '',
        name: c[2] ?? '',
        tiers: [c[3], c[4], c[5], c[6]].map((v) => v ?? '').filter((v) => v !== ''),
        extension: c[7] ?? '',
      }
    })
}

/** Keeps the synthetic ids of an earlier build so regenerating never renumbers a node. */
function previousSyntheticIds(): Map<string, number> {
  const map = new Map<string, number>()
  if (!existsSync(target)) return map
  const old = JSON.parse(readFileSync(target, 'utf8')) as { nodes: { id: number; unique_id: string }[] }
  for (const n of old.nodes) if (n.id >= SYNTHETIC_BASE) map.set(n.unique_id, n.id)
  return map
}

const raw = readFileSync(source)
const rows = parse(raw.toString('utf8'))
const synthetic = previousSyntheticIds()
let nextSynthetic = Math.max(SYNTHETIC_BASE, ...synthetic.values()) + 1
const idOf = new Map<string, number>()
for (const r of rows) {
  if (idOf.has(r.unique_id)) throw new Error(`duplicate Unique ID ${r.unique_id}`)
  let id = /^[1-9][0-9]*$/.test(r.unique_id) ? Number(r.unique_id) : synthetic.get(r.unique_id)
  if (id === undefined) id = nextSynthetic++
  idOf.set(r.unique_id, id)
}

// Two 3.1 rows (376 Public Radio, 497 Horse Racing) name their tier-1 as Parent while their tier
// path puts them under a tier-2 node. The tier path is the more specific statement, so it wins;
// the corrections are recorded in the output.
const byPath = new Map(rows.map((r) => [r.tiers.join('\u0000'), r.unique_id]))
const corrections: { unique_id: string; parent_in_source: string; parent_used: string }[] = []
function parentOf(r: Row): string {
  if (r.tiers.length < 2) return r.parent
  const fromPath = byPath.get(r.tiers.slice(0, -1).join('\u0000'))
  if (fromPath === undefined) throw new Error(`${r.unique_id}: no node at the parent path ${r.tiers.slice(0, -1).join(' > ')}`)
  if (fromPath !== r.parent) corrections.push({ unique_id: r.unique_id, parent_in_source: r.parent, parent_used: fromPath })
  return fromPath
}

const nodes = rows.map((r) => {
  const id = idOf.get(r.unique_id) as number
  const parent = parentOf(r)
  const parentId = parent === '' ? null : idOf.get(parent)
  if (parentId === undefined) throw new Error(`${r.unique_id}: unknown parent ${parent}`)
  if (r.tiers.length === 0 || r.tiers.length > 4) throw new Error(`${r.unique_id}: bad tier path`)
  if (r.tiers[r.tiers.length - 1] !== r.name) throw new Error(`${r.unique_id}: name is not the last tier`)
  return {
    id,
    unique_id: r.unique_id,
    parent_id: parentId,
    name: r.name,
    tier: r.tiers.length,
    level1_name: r.tiers[0] ?? null,
    level2_name: r.tiers[1] ?? null,
    level3_name: r.tiers[2] ?? null,
    ...(r.extension ? { extension: r.extension } : {}),
  }
})

const out = {
  taxonomy: 'IAB Tech Lab Content Taxonomy 3.1',
  cattax: 9,
  licence: 'CC BY 3.0 (https://creativecommons.org/licenses/by/3.0/), (c) IAB Technology Laboratory',
  source: {
    repository: 'https://github.com/InteractiveAdvertisingBureau/Taxonomies',
    commit: 'b7acdcaa30d4c389d0fe022e93865ca59a4299e6',
    file: 'Content Taxonomies/Content Taxonomy 3.1.tsv',
    sha256: createHash('sha256').update(raw).digest('hex'),
  },
  synthetic_id_base: SYNTHETIC_BASE,
  parent_corrections: corrections,
  nodes,
}
// One node per line keeps diffs of future taxonomy updates readable.
const body = JSON.stringify({ ...out, nodes: [] }, null, 2).replace(
  '"nodes": []',
  `"nodes": [\n${nodes.map((n) => `    ${JSON.stringify(n)}`).join(',\n')}\n  ]`,
)
writeFileSync(target, `${body}\n`)
console.log(`wrote ${nodes.length} nodes (${corrections.length} parent corrections) to ${target}`)
