// API.md "Operations": with WORKERS=N, N processes serve the one port and share all state through the database.
// This starts the real server (primary and two workers) and drives a contract journey over fresh connections, which
// Node's cluster hands to the workers in turn, so every step that depends on an earlier one crosses processes.
import { execFileSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from './dialects'
import { request, startServerProcess } from './server-process'
import { createTestDatabase, dropTestDatabase } from './test-app'

const serverRoot = path.join(import.meta.dirname, '..')
const METRICS_TOKEN = 'scrape-token-0123456789abcdef'

const childrenOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

describe.each(dialects)('two server processes on %s (WORKERS=2)', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-workers-'))
  let pgName: string | undefined
  let server: Awaited<ReturnType<typeof startServerProcess>>
  let primary: ChildProcess
  let baseUrl: string

  beforeAll(async () => {
    // The built server starts in a second where tsx would take many: build it as `npm start` does.
    execFileSync(process.execPath, ['build.mjs'], { cwd: serverRoot, stdio: 'inherit' })
    let databaseUrl: string | undefined
    if (dialect === 'postgres') {
      const created = await createTestDatabase('quiz_workers')
      pgName = created.name
      databaseUrl = created.url
    }
    server = await startServerProcess(
      {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        JWT_SECRET: randomBytes(32).toString('hex'),
        // info (the helper's level): the port is read from the workers' "listening at" line.
        WORKERS: '2',
        METRICS_TOKEN,
        WEB_DIST: path.join(dataDir, 'no-web'),
        DATABASE_URL: databaseUrl ?? '',
      },
      { built: true, ready: (child) => childrenOf(child.pid!).length === 2 },
    )
    primary = server.child
    baseUrl = server.baseUrl
  }, 60_000)

  afterAll(async () => {
    if (primary.exitCode === null) primary.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
    // The workers' pools close as they exit; dropping waits for the database to be free of them.
    if (pgName) await dropTestDatabase(pgName)
  })

  it('shares codes, tokens, attempts and metrics between the workers, and stops both on SIGTERM', async () => {
    const workers = childrenOf(primary.pid!)
    expect(workers).toHaveLength(2)

    // Registration: a code sent by one worker is checked by another, and the verification is consumed by a third.
    const phone = '9811122233'
    const sent = await request(baseUrl, 'POST', '/api/users/otp/send/', {
      body: { phone_number: phone, purpose: 'register' },
    })
    expect(sent.status).toBe(200)
    const outbox = readFileSync(path.join(dataDir, 'sms-outbox.jsonl'), 'utf8').trim().split('\n')
    const code = /\b(\d{6})\b/.exec(JSON.parse(outbox.at(-1)!).text)![1]
    const verified = await request(baseUrl, 'POST', '/api/users/otp/verify/', {
      body: { phone_number: phone, purpose: 'register', otp: code },
    })
    expect(verified.body).toEqual({ verified: true })
    const password = 'Two-workers-2026'
    const registered = await request(baseUrl, 'POST', '/api/users/register/', {
      body: { username: 'twoproc', password, password2: password, phone_number: phone },
    })
    expect(registered.status).toBe(201)

    // Refresh tokens rotate across workers, and reuse of a rotated one is caught by whichever worker sees it.
    const login = await request(baseUrl, 'POST', '/api/token/', { body: { username: 'twoproc', password } })
    expect(login.status).toBe(200)
    const rotated = await request(baseUrl, 'POST', '/api/token/refresh/', { body: { refresh: login.body.refresh } })
    expect(rotated.status).toBe(200)
    const reused = await request(baseUrl, 'POST', '/api/token/refresh/', { body: { refresh: login.body.refresh } })
    expect(reused.status).toBe(401)
    const afterReuse = await request(baseUrl, 'POST', '/api/token/refresh/', {
      body: { refresh: rotated.body.refresh },
    })
    expect(afterReuse.status).toBe(401)
    const learner = rotated.body.access as string

    // An admin (made by the CLI, a third process) writes a one-attempt quiz through one worker.
    execFileSync(
      process.execPath,
      ['dist/cli/create-admin.js', '--username', 'head', '--password', 'Boss-pass-2026', '--phone', '9800000001'],
      { cwd: serverRoot, env: { ...server.env, WORKERS: '1' }, stdio: 'inherit' },
    )
    const admin = (
      await request(baseUrl, 'POST', '/api/token/', { body: { username: 'head', password: 'Boss-pass-2026' } })
    ).body.access as string
    const created = await request(baseUrl, 'POST', '/api/quizzes/create-from-json/', {
      token: admin,
      body: {
        title: { en: 'Shared state', ne: '' },
        start_time: new Date(Date.now() - 60_000).toISOString(),
        end_time: null,
        duration_minutes: 10,
        allowed_attempts: 1,
        difficulty: 'easy',
        is_paid_tier: false,
        questions: [1, 2].map((n) => ({
          text: { en: `Question ${n}`, ne: '' },
          topic: 'sharing',
          options: [
            { text: { en: 'right', ne: '' }, is_correct: true },
            { text: { en: 'wrong', ne: '' }, is_correct: false },
          ],
        })),
      },
    })
    expect(created.status).toBe(201)
    const quizId = created.body.quiz_id as number

    // Ten starts at once across both workers: one attempt, resumed by all. Ten submits at once: scored once.
    const starts = await Promise.all(
      Array.from({ length: 10 }, () => request(baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token: learner })),
    )
    expect(starts.map((start) => start.status)).toEqual(Array(10).fill(200))
    expect(new Set(starts.map((start) => start.body.attempt.id)).size).toBe(1)
    const first = (await request(baseUrl, 'GET', `/api/quizzes/${quizId}/question/1/`, { token: learner })).body
    const right = first.options.find((option: { text: { en: string } }) => option.text.en === 'right').id
    const saved = await request(baseUrl, 'PUT', `/api/quizzes/${quizId}/answers/`, {
      token: learner,
      body: { answers: { [first.id]: right } },
    })
    expect(saved.status).toBe(200)
    const submits = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(baseUrl, 'POST', `/api/quizzes/${quizId}/submit/`, {
          token: learner,
          body: { answers: {}, attempt_id: starts[0]!.body.attempt.id },
        }),
      ),
    )
    expect(submits.map((submit) => submit.status)).toEqual(Array(10).fill(200))
    expect(new Set(submits.map((submit) => submit.body.score))).toEqual(new Set([1]))
    const again = await request(baseUrl, 'GET', `/api/quizzes/${quizId}/`, { token: learner })
    expect(again.status).toBe(403)
    expect(again.body.code).toBe('no_attempts_left')

    // Whichever worker is scraped answers for both.
    const scraped = await request(baseUrl, 'GET', '/api/metrics', { token: METRICS_TOKEN })
    expect(scraped.status).toBe(200)
    expect(scraped.body).toContain('quiz_attempts_started_total 1\n')
    expect(scraped.body).toContain('quiz_attempts_submitted_total 1\n')
    expect(scraped.body).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/api\/quizzes\/:id\/submit\/",status="200"\} 10\n/,
    )

    primary.kill('SIGTERM')
    expect((await server.exited).code).toBe(0)
    for (const pid of workers) expect(() => process.kill(Number(pid), 0)).toThrow()
  }, 120_000)
})
