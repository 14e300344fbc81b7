import { defineConfig } from 'vitest/config'
import base from './vitest.config'

// What CI runs again on the other supported Node lines (README "Node.js lines"): the whole suite runs on the
// machine's line; on 24 and 26 only what can differ between lines runs again. That is the native addons and
// runtime features (the SQLite driver picked per line, argon2, sharp, ECDH and web-push crypto, zlib, worker
// threads, child processes and signals, the SQLite backup API) and one route file of each family, so a line
// that breaks a plugin, a driver or a route's wiring is still caught, without the suite's hour again.
export const lineChecks = [
  // native addons and runtime features
  'src/db/sqlite-driver.test.ts',
  'src/db/database.test.ts',
  'src/auth/auth.routes.test.ts',
  'src/users/profile.routes.test.ts',
  'src/lib/vapid-keys.test.ts',
  'src/notifications/push.routes.test.ts',
  'src/http/compression.test.ts',
  'src/http/tokens.test.ts',
  'src/svg/sanitize-svg.test.ts',
  'src/maths/render-maths.test.ts',
  'src/cli/backup-restore.test.ts',
  'test/graceful-stop.test.ts',
  'test/two-processes.test.ts',
  'test/smoke.test.ts',
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

// Not mergeConfig: it would append this list to the base's globs instead of replacing them.
export default defineConfig({ ...base, test: { ...base.test, include: lineChecks } })
