import { defineConfig } from 'vitest/config'
import base from './vitest.config'

// What CI runs again on the other supported Node lines (README "Node.js lines"): the whole suite runs on the
// machine's line; on 22, 24 and 26 only what can differ between lines runs again. That is the native addons and
// runtime features (the SQLite driver picked per line, argon2, sharp, ECDH and web-push crypto, zlib, worker
// threads, child processes and signals, the SQLite backup API) and one route file of each family, so a line
// that breaks a plugin, a driver or a route's wiring is still caught, without the suite's hour again.

/** Run on SQLite and, when TEST_DATABASE_URL is set, PostgreSQL: the database layer and the processes around it. */
export const bothDatabases = [
  'src/db/sqlite-driver.test.ts',
  'src/db/database.test.ts',
  'test/two-processes.test.ts',
  'test/smoke.test.ts',
]

/**
 * Run on SQLite only: `pg` and Kysely's PostgreSQL dialect are plain JavaScript, the same on every line, and the
 * machine's line has already run each of these files on PostgreSQL; on the other lines the native addons they reach
 * (the SQLite driver, argon2, sharp) are what can break.
 */
export const sqliteOnly = [
  // native addons and runtime features
  'src/auth/auth.routes.test.ts',
  'src/users/profile.routes.test.ts',
  'src/lib/vapid-keys.test.ts',
  'src/notifications/push.routes.test.ts',
  'src/http/compression.test.ts',
  'src/http/tokens.test.ts',
  'src/svg/sanitize-svg.test.ts',
  'src/maths/render-maths.test.ts',
  'src/imports/worker/pool.test.ts',
  'src/cli/backup-restore.test.ts',
  'test/graceful-stop.test.ts',
  'src/config.test.ts',
  // one route file of each family
  'src/quizzes/quizzes.routes.test.ts',
  'src/attempts/timed-sections.test.ts',
  'src/results/results.routes.test.ts',
  'src/practice/practice.routes.test.ts',
  'src/admin/admin.routes.test.ts',
  'src/imports/imports.routes.test.ts',
  'src/challenges/challenges.routes.test.ts',
  'src/live/live-mocks.test.ts',
  'src/institutions/institutions.routes.test.ts',
  'src/payments/payments.routes.test.ts',
  'src/notifications/notifications.routes.test.ts',
  'src/users/users.routes.test.ts',
]

export const lineChecks = [...bothDatabases, ...sqliteOnly]

// The base's options but its globs: `extends` would append each project's list to them instead of replacing them.
const { include: _everyTest, ...options } = base.test!

export default defineConfig({
  test: {
    ...options,
    projects: [
      { test: { ...options, name: 'both databases', include: bothDatabases } },
      // An empty TEST_DATABASE_URL leaves test/dialects.ts with SQLite alone.
      { test: { ...options, name: 'sqlite', include: sqliteOnly, env: { TEST_DATABASE_URL: '' } } },
    ],
  },
})
