import { fileURLToPath } from 'node:url'

import { defineConfig } from 'vite'

// The console's build (docs/console.md): `npm run build:console`, run by `npm install` (prepare).
// JSX goes through esbuild with Preact's automatic runtime, so no Babel preset is needed.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  logLevel: 'warn',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // The CSP allows no inline script: no module-preload polyfill, nothing inlined into index.html.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 300,
  },
})
