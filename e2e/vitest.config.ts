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
    // expect.poll gives up after 1 s by default: on a loaded CI machine a debounced request to the server took
    // longer (the font converter's journey failed so). The same 15 s as a locator's wait.
    expect: { poll: { timeout: 15_000 } },
  },
})
