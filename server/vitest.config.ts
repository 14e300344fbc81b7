import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one file at a time on a two-core CI machine, while most
    // of a file's time is spent waiting on PostgreSQL, sharp's threads or a child process.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
