import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

// Runs the repository's own eslint.config.js on one line of code placed at a path, as `npm run lint` would.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const eslint = new ESLint({ cwd: root })

async function boundaryErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  return result!.messages.filter((m) => m.ruleId === 'import/no-restricted-paths').map((m) => m.message)
}

describe('import boundaries', () => {
  it.each([
    ['server/src/http/new.ts', "import { createAuthService } from '../auth/auth.service'", 'imports no feature'],
    ['server/src/db/new.ts', "import type { AppContext } from '../context'", 'imports no feature'],
    ['server/src/audit/new.ts', "import { actorOf } from '../admin/audit-log.service'", 'imports no feature'],
    [
      'server/src/users/new.ts',
      "import { replaceCodeUnlessCoolingDown } from '../auth/otp-codes.repository'",
      'only through',
    ],
    ['server/src/results/new.ts', "import { upsertFlag } from '../challenges/challenges.repository'", 'only through'],
    ['server/src/quizzes/new.ts', "import { buildApp } from '../app'", 'composition root'],
    ['server/src/results/new.ts', "import { createServices } from '../services'", 'composition root'],
    ['server/src/attempts/new.ts', "import { createQuizService } from '../quizzes/quizzes.service'", 'layers below'],
    [
      'server/src/attempts/new.ts',
      "import { createPracticeService } from '../practice/practice.service'",
      'layers below',
    ],
    ['server/src/attempts/new.ts', "import { createLiveService } from '../live/live.service'", 'layers below'],
    // Two features of one layer: neither imports the other, so they can never import each other in a circle.
    ['server/src/challenges/new.ts', "import { createLiveService } from '../live/live.service'", 'layers below'],
    ['server/src/db/new.ts', "import { AppError } from '../http/errors'", 'shared code of the layers below'],
    ['server/src/http/new.ts', "import { hasPaidAccess } from '../accounts/paid-access.repository'", 'layers below'],
    ['server/src/quizzes/new.ts', "import { upsertAnswers } from '../attempts/attempts.repository'", 'only through'],
    ['server/src/sms/new.ts', "import { createOtpService } from '../auth/otp.service'", 'imports no feature'],
    ['server/src/quizzes/new.repository.ts', "import { createQuizService } from './quizzes.service'", 'repository'],
    ['server/src/quizzes/new.service.ts', "import { quizzesRoutes } from './quizzes.routes'", 'a service imports no'],
    // Which attempt counts is outcomes' SQL fragment for other repositories: no other file of outcomes, and no
    // service, reaches it.
    [
      'server/src/written/new.repository.ts',
      "import { listCountedScores } from '../outcomes/outcomes.repository'",
      'only through',
    ],
    [
      'server/src/written/new.service.ts',
      "import { isCountedAttempt } from '../outcomes/counted-attempt.repository'",
      'only a repository',
    ],
    [
      'server/src/institutions/new.ts',
      "import { isCountedAttempt } from '../outcomes/counted-attempt.repository'",
      'only a repository',
    ],
    ['web/src/features/quiz/new.ts', "import { QuizCard } from '../dashboard/quiz-card'", 'never imports'],
    ['web/src/lib/new.ts', "import { Component } from '../features/profile/profile-page'", 'Shared web code'],
    ['web/src/components/new.ts', "import { App } from '../app/app'", 'Shared web code'],
    ['web/src/features/quiz/new.ts', "import { App } from '../../app/app'", 'Nothing imports app/'],
    ['web/src/lib/new.ts', "import { request } from '../api/client'", 'shared folders of the layers below'],
    ['web/src/session/new.ts', "import { request } from '../api/client'", 'shared folders of the layers below'],
  ])('refuses %s: %s', async (file, code, message) => {
    const errors = await boundaryErrors(file, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(message)
  })

  it.each([
    ['server/src/results/new.ts', "import { createAttemptLifecycle } from '../attempts/attempts.service'"],
    ['server/src/auth/new.ts', "import type { SmsSender } from '../sms/sms-sender'"],
    ['server/src/app.ts', "import { createServices } from './services'"],
    ['server/src/auth/new.ts', "import { findUserById } from '../accounts/users.repository'"],
    ['server/src/plans/new.ts', "import { recordAudit } from '../audit/audit-log'"],
    ['server/src/http/new.ts', "import { createTokenSigner } from './tokens'"],
    ['server/src/app.ts', "import { quizzesRoutes } from './quizzes/quizzes.routes'"],
    ['web/src/features/quiz/new.ts', "import { paths } from '../../lib/paths'"],
    ['web/src/api/new.ts', "import { paths } from '../lib/paths'"],
    ['server/src/live/new.ts', "import { liveTimes } from '../attempts/live-window.service'"],
    ['server/src/quizzes/new.ts', "import { createLiveService } from '../live/live.service'"],
    ['server/src/db/migrations/new.ts', "import { normaliseForHash } from '../../questions/content-hash'"],
    ['web/src/app/new.ts', "import { Component } from '../features/profile/profile-page'"],
    [
      'server/src/institutions/new.repository.ts',
      "import { isCountedAttempt } from '../outcomes/counted-attempt.repository'",
    ],
  ])('allows %s: %s', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([])
  })
})

describe('the composition root', () => {
  const buildErrors = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(root, file) }))[0]!.messages
      .filter((m) => m.ruleId === 'no-restricted-syntax')
      .map((m) => m.message)

  it.each([
    ['server/src/plans/new.routes.ts', 'const plans = createPlanService(context)'],
    ['server/src/users/new.routes.ts', 'export const routes = async () => { createRateLimiter({ database, clock }) }'],
  ])('refuses a service built in a route file: %s: %s', async (file, code) => {
    const errors = await buildErrors(file, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('server/src/services.ts')
  })

  it.each([
    ['server/src/plans/new.routes.ts', 'const made = plans.createPlan(body, actor)'],
    ['server/src/services.ts', 'const plans = createPlanService(context)'],
    ['server/src/plans/new.test.ts', 'const plans = createPlanService(context)'],
  ])('allows %s: %s', async (file, code) => {
    expect(await buildErrors(file, code)).toEqual([])
  })

  const repositoryErrors = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(root, file) }))[0]!.messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => m.message)

  it.each([
    ['server/src/health/new.routes.ts', "import { pingDatabase } from './health.repository'"],
    ['server/src/payments/new.routes.ts', "import type { FakeRow } from './fake-gateway.repository'"],
  ])('refuses a repository read from a route file: %s: %s', async (file, code) => {
    const errors = await repositoryErrors(file, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain('server/src/services.ts')
  })

  it.each([
    ['server/src/health/new.routes.ts', "import type { HealthService } from './health.service'"],
    ['server/src/health/health.service.ts', "import { pingDatabase } from './health.repository'"],
    ['server/src/health/new.test.ts', "import { pingDatabase } from './health.repository'"],
  ])('allows %s: %s', async (file, code) => {
    expect(await repositoryErrors(file, code)).toEqual([])
  })
})

describe('the SQLite driver', () => {
  const driverErrors = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(root, file) }))[0]!.messages.filter(
      (m) => m.ruleId === '@typescript-eslint/no-restricted-imports',
    )

  it('is opened only through db/sqlite-driver.ts, which picks it per Node line', async () => {
    expect(await driverErrors('server/src/quizzes/new.ts', "import SQLite from 'better-sqlite3'")).toHaveLength(1)
    expect(await driverErrors('server/test/new.ts', "import Database from 'better-sqlite3-node20'")).toHaveLength(1)
    expect(await driverErrors('server/src/db/sqlite-driver.ts', "import SQLite from 'better-sqlite3'")).toEqual([])
    expect(await driverErrors('server/src/db/new.ts', "import type SQLite from 'better-sqlite3'")).toEqual([])
  })
})

describe('SQL outside repositories', () => {
  const sqlErrors = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(root, file) }))[0]!.messages
      .filter((m) => m.ruleId === 'no-restricted-syntax')
      .map((m) => m.message)

  it.each([
    "export const q = (db: any) => db.selectFrom('users').selectAll().execute()",
    "export const q = (db: any) => db.insertInto('users').values({}).execute()",
    "export const q = (db: any) => db.updateTable('users').set({}).execute()",
    "export const q = (db: any) => db.deleteFrom('users').execute()",
    "export const q = (db: any) => db.with('x', (c: any) => c).selectNoFrom([]).execute()",
    "export const q = (eb: any) => eb.exists(({ selectFrom }: any) => selectFrom('users'))",
    "import { sql } from 'kysely'\nexport const one = sql<number>`select 1`",
  ])('refuses in a service: %s', async (code) => {
    const errors = await sqlErrors('server/src/quizzes/new.service.ts', code)
    expect(errors.length).toBeGreaterThan(0)
    expect(errors[0]).toContain('*.repository.ts')
  })

  it.each([
    'server/src/quizzes/new.repository.ts',
    'server/src/questions/new.repository.ts',
    'server/src/db/new.ts',
    'server/src/db/migrations/9999_new.ts',
    'server/src/quizzes/new.test.ts',
  ])('allows in %s', async (file) => {
    const code = "import { sql } from 'kysely'\nexport const q = (db: any) => db.selectFrom('users').where(sql`1 = 1`)"
    expect(await sqlErrors(file, code)).toEqual([])
  })

  it('allows the types of kysely anywhere', async () => {
    const code =
      "import type { Kysely } from 'kysely'\nimport { type sql } from 'kysely'\nexport type Db = Kysely<object>"
    expect(await sqlErrors('server/src/quizzes/new.service.ts', code)).toEqual([])
  })
})
