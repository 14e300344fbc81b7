import { defineConfig } from 'vitest/config'

// End-to-end journeys: each file starts the built server on a free port with a fresh data directory
// and drives the system's Chromium through playwright-core.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
})
