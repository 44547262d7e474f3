// The layering rule (CONTRIBUTING.md, "Layers"): a module under src/ may import only from its own
// feature folder or from a layer below its own. Same-rank features (scraping, pixel, activation,
// snowball) do not import each other: what two features share belongs in content/ or platform/.
import path from 'node:path'

/** Folder under src/ → rank. Files directly under src/ are the composition root. */
export const LAYERS = {
  platform: 0,
  content: 1,
  scraping: 2,
  pixel: 2,
  activation: 2,
  snowball: 2,
  curation: 3,
  adcp: 4,
  console: 4,
  '(root)': 5,
  cli: 6,
}

/** The layer of a path inside src/, or null for anything outside src/. */
function layerOf(srcDir, file) {
  const rel = path.relative(srcDir, file)
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null
  const parts = rel.split(path.sep)
  return parts.length === 1 ? '(root)' : parts[0]
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'src/ modules import only downward (platform < content < features < curation < adcp < root < cli)' },
    schema: [],
    messages: {
      upward:
        '{{from}}/ may not import from {{to}}/ ({{spec}}): {{to}} is layer {{toRank}}, {{from}} is layer {{fromRank}}; move what both need down to content/ or platform/',
      sideways:
        '{{from}}/ may not import from {{to}}/ ({{spec}}): features of one layer do not import each other; move what both need down to content/ or platform/',
      unknown: '{{dir}}/ is not a known layer: add it to eslint/layers.js and CONTRIBUTING.md',
    },
  },
  create(context) {
    const file = context.filename
    const srcDir = path.join(context.cwd, 'src')
    const from = layerOf(srcDir, file)
    if (from === null) return {}
    if (!(from in LAYERS)) {
      return { Program: (node) => context.report({ node, messageId: 'unknown', data: { dir: from } }) }
    }
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return
      const to = layerOf(srcDir, path.resolve(path.dirname(file), spec))
      if (to === null || to === from || !(to in LAYERS)) return
      const data = { from, to, spec, fromRank: LAYERS[from], toRank: LAYERS[to] }
      if (LAYERS[to] > LAYERS[from]) context.report({ node, messageId: 'upward', data })
      else if (LAYERS[to] === LAYERS[from]) context.report({ node, messageId: 'sideways', data })
    }
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    }
  },
}

export default { rules: { layers: rule } }
