// API.md "Operations": with WORKERS=N, N processes serve the one port and share all state through the database.
// This starts the real server (primary and two workers) and drives a contract journey over fresh connections, which
// Node's cluster hands to the workers in turn, so every step that depends on an earlier one crosses processes.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from './dialects'

const serverRoot = path.join(import.meta.dirname, '..')
const METRICS_TOKEN = 'scrape-token-0123456789abcdef'

interface Answer {
  status: number
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of many routes
  text: string
}

/** One request on a connection of its own (no keep-alive), so consecutive requests reach different workers. */
function request(port: number, method: string, url: string, { body, token }: { body?: unknown; token?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body)
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        agent: false,
        headers: {
          ...(payload && { 'content-type': 'application/json' }),
          ...(token && { authorization: `Bearer ${token}` }),
        },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => {
          let parsed: unknown = undefined
          try {
            parsed = JSON.parse(text)
          } catch {
            // not JSON (metrics)
          }
          resolve({ status: res.statusCode!, body: parsed, text })
        })
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const childrenOf = (pid: number) =>
  execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)

describe.each(dialects)('two server processes on %s (WORKERS=2)', (dialect) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-workers-'))
  const pgName = `quiz_workers_${process.pid}_${randomBytes(4).toString('hex')}`
  let env: NodeJS.ProcessEnv
  let port: number
  let primary: ChildProcess
  let exited: Promise<number | null>

  const adminQuery = async (text: string) => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await client.connect()
    try {
      await client.query(text)
    } finally {
      await client.end()
    }
  }

  beforeAll(async () => {
    // The built server starts in a second where tsx would take many: build it as `npm start` does.
    execFileSync(process.execPath, ['build.mjs'], { cwd: serverRoot, stdio: 'inherit' })
    port = await freePort()
    let databaseUrl: string | undefined
    if (dialect === 'postgres') {
      await adminQuery(`create database ${pgName}`)
      const url = new URL(process.env.TEST_DATABASE_URL!)
      url.pathname = `/${pgName}`
      databaseUrl = url.toString()
    }
    env = {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      WORKERS: '2',
      METRICS_TOKEN,
      WEB_DIST: path.join(dataDir, 'no-web'),
      DATABASE_URL: databaseUrl ?? '',
    }
    primary = spawn(process.execPath, ['dist/main.js'], { cwd: serverRoot, env, stdio: 'inherit' })
    exited = new Promise((resolve) => primary.once('exit', (code) => resolve(code)))
    for (let i = 0; ; i++) {
      const health = await request(port, 'GET', '/api/health').catch(() => undefined)
      if (health?.status === 200 && childrenOf(primary.pid!).length === 2) break
      if (i > 300) throw new Error('the server did not start two workers')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }, 60_000)

  afterAll(async () => {
    if (primary.exitCode === null) primary.kill('SIGKILL')
    rmSync(dataDir, { recursive: true, force: true })
    if (dialect === 'postgres') {
      // The workers' pools close as they exit; wait for the database to be free of them.
      for (let attempt = 0; ; attempt++) {
        try {
          await adminQuery(`drop database if exists ${pgName}`)
          break
        } catch (error) {
          if (attempt > 50) throw error
          await new Promise((resolve) => setTimeout(resolve, 100))
        }
      }
    }
  })

  it('shares codes, tokens, attempts and metrics between the workers, and stops both on SIGTERM', async () => {
    const workers = childrenOf(primary.pid!)
    expect(workers).toHaveLength(2)

    // Registration: a code sent by one worker is checked by another, and the verification is consumed by a third.
    const phone = '9811122233'
    const sent = await request(port, 'POST', '/api/users/otp/send/', {
      body: { phone_number: phone, purpose: 'register' },
    })
    expect(sent.status).toBe(200)
    const outbox = readFileSync(path.join(dataDir, 'sms-outbox.jsonl'), 'utf8').trim().split('\n')
    const code = /\b(\d{6})\b/.exec(JSON.parse(outbox.at(-1)!).text)![1]
    const verified = await request(port, 'POST', '/api/users/otp/verify/', {
      body: { phone_number: phone, purpose: 'register', otp: code },
    })
    expect(verified.body).toEqual({ verified: true })
    const password = 'Two-workers-2026'
    const registered = await request(port, 'POST', '/api/users/register/', {
      body: { username: 'twoproc', password, password2: password, phone_number: phone },
    })
    expect(registered.status).toBe(201)

    // Refresh tokens rotate across workers, and reuse of a rotated one is caught by whichever worker sees it.
    const login = await request(port, 'POST', '/api/token/', { body: { username: 'twoproc', password } })
    expect(login.status).toBe(200)
    const rotated = await request(port, 'POST', '/api/token/refresh/', { body: { refresh: login.body.refresh } })
    expect(rotated.status).toBe(200)
    const reused = await request(port, 'POST', '/api/token/refresh/', { body: { refresh: login.body.refresh } })
    expect(reused.status).toBe(401)
    const afterReuse = await request(port, 'POST', '/api/token/refresh/', { body: { refresh: rotated.body.refresh } })
    expect(afterReuse.status).toBe(401)
    const learner = rotated.body.access as string

    // An admin (made by the CLI, a third process) writes a one-attempt quiz through one worker.
    execFileSync(
      process.execPath,
      ['dist/cli/create-admin.js', '--username', 'head', '--password', 'Boss-pass-2026', '--phone', '9800000001'],
      { cwd: serverRoot, env: { ...env, WORKERS: '1' }, stdio: 'inherit' },
    )
    const admin = (
      await request(port, 'POST', '/api/token/', { body: { username: 'head', password: 'Boss-pass-2026' } })
    ).body.access as string
    const created = await request(port, 'POST', '/api/quizzes/create-from-json/', {
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
      Array.from({ length: 10 }, () => request(port, 'GET', `/api/quizzes/${quizId}/`, { token: learner })),
    )
    expect(starts.map((start) => start.status)).toEqual(Array(10).fill(200))
    expect(new Set(starts.map((start) => start.body.attempt.id)).size).toBe(1)
    const first = (await request(port, 'GET', `/api/quizzes/${quizId}/question/1/`, { token: learner })).body
    const right = first.options.find((option: { text: { en: string } }) => option.text.en === 'right').id
    const saved = await request(port, 'PUT', `/api/quizzes/${quizId}/answers/`, {
      token: learner,
      body: { answers: { [first.id]: right } },
    })
    expect(saved.status).toBe(200)
    const submits = await Promise.all(
      Array.from({ length: 10 }, () =>
        request(port, 'POST', `/api/quizzes/${quizId}/submit/`, {
          token: learner,
          body: { answers: {}, attempt_id: starts[0]!.body.attempt.id },
        }),
      ),
    )
    expect(submits.map((submit) => submit.status)).toEqual(Array(10).fill(200))
    expect(new Set(submits.map((submit) => submit.body.score))).toEqual(new Set([1]))
    const again = await request(port, 'GET', `/api/quizzes/${quizId}/`, { token: learner })
    expect(again.status).toBe(403)
    expect(again.body.code).toBe('no_attempts_left')

    // Whichever worker is scraped answers for both.
    const scraped = await request(port, 'GET', '/api/metrics', { token: METRICS_TOKEN })
    expect(scraped.status).toBe(200)
    expect(scraped.text).toContain('quiz_attempts_started_total 1\n')
    expect(scraped.text).toContain('quiz_attempts_submitted_total 1\n')
    expect(scraped.text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/api\/quizzes\/:id\/submit\/",status="200"\} 10\n/,
    )

    primary.kill('SIGTERM')
    expect(await exited).toBe(0)
    for (const pid of workers) expect(() => process.kill(Number(pid), 0)).toThrow()
  }, 120_000)
})
