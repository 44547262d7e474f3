import { defineConfig } from 'vitest/config'

// Tests that start processes, kill them, run for a fixed time budget (the fuzz test) or run a whole
// compliance runner (the AdCP storyboards, minutes per engine): a project of their own, so `npm test` stays short; CI runs both (`npm run test:process`, `npm run test:all`).
export const processTests = [
  'test/cli/**/*.test.ts',
  'test/**/crash.test.ts',
  'test/platform/http/fuzz.test.ts',
  'test/adcp/stdio.test.ts',
  'test/adcp/compliance/**/*.test.ts',
  'test/pixel/durability.test.ts',
  'test/scraping/jobs/workers-politeness.test.ts',
]

export default defineConfig({
  test: {
    pool: 'forks',
    // One module cache per fork instead of one per test file: the app (and the topic model) is
    // imported once per fork rather than once per file, which cuts the collect time from about 90 s
    // to 20 s. Safe because no test mocks or stubs a module, a global or the environment (the AdCP
    // compliance harness sets one variable and restores it). Vitest reads this per pool, not per project.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/global-setup.ts'],
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: processTests } },
      { extends: true, test: { name: 'process', include: processTests } },
    ],
  },
})
