import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from './fixtures'

// The README's "First steps as a new user", as written: its create-admin line and its step 2 shell block run in
// bash against a fresh server (only the address changes), then a learner registers with the code from the outbox,
// finds the example quiz, takes it and reads the report. The example quiz has no dates, so this holds on any day.
const root = path.resolve(import.meta.dirname, '..')
const readme = readFileSync(path.join(root, 'README.md'), 'utf8')

function shellBlockAfter(marker: string) {
  const from = readme.indexOf(marker)
  expect(from, `README has "${marker}"`).toBeGreaterThan(-1)
  return /```sh\n([\s\S]*?)```/.exec(readme.slice(from))![1]!
}

function bash(script: string, server: TestServer) {
  const result = spawnSync('bash', ['-euo', 'pipefail', '-c', script], { cwd: root, env: server.env, encoding: 'utf8' })
  expect(result.status, result.stderr).toBe(0)
  return result.stdout
}

describe("the README's first steps", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer()
  })
  afterAll(() => server?.stop())

  it('make an admin, create the example quiz with curl, and let a learner take it and read the report', async () => {
    // `npm run create-admin -- ARGS` builds and runs the CLI; here the CLI is already built, so `npm` runs it.
    const createAdmin = shellBlockAfter('Make an administrator')
    expect(createAdmin).toContain('npm run create-admin --')
    bash(`npm() { shift 3; node server/dist/cli/create-admin.js "$@"; }\n${createAdmin}`, server)

    const stepTwo = shellBlockAfter('2. Get a token and create a quiz from JSON')
    const output = bash(stepTwo.replaceAll('http://localhost:3000', server.baseUrl), server)
    const quizId = (JSON.parse(output.trim()) as { quiz_id: number }).quiz_id
    expect(quizId).toBeGreaterThan(0)

    const phone = '9841000001'
    expect(
      (await server.api('POST', '/api/users/otp/send/', { phone_number: phone, purpose: 'register' })).status,
    ).toBe(200)
    const otp = server.readOtp(phone)
    expect(
      (await server.api('POST', '/api/users/otp/verify/', { phone_number: phone, otp, purpose: 'register' })).status,
    ).toBe(200)
    const password = 'Marigold-Terrace-5182'
    const registered = await server.api('POST', '/api/users/register/', {
      username: 'first_learner',
      password,
      password2: password,
      phone_number: phone,
    })
    expect(registered.status).toBe(201)
    const { access } = await server.login('first_learner', password)

    const listed = await server.api<{ id: number; title: { en: string } }[]>('GET', '/api/quizzes/', undefined, access)
    expect(listed.body.map((quiz) => quiz.id)).toContain(quizId)
    const started = await server.api<{ questions: { id: number }[] }>(
      'GET',
      `/api/quizzes/${quizId}/`,
      undefined,
      access,
    )
    expect(started.status).toBe(200)
    const first = await server.api<{ id: number; options: { id: number }[] }>(
      'GET',
      `/api/quizzes/${quizId}/question/1/`,
      undefined,
      access,
    )
    const submitted = await server.api<{ attempt_id: number; total_questions: number }>(
      'POST',
      `/api/quizzes/${quizId}/submit/`,
      { answers: { [first.body.id]: first.body.options[0]!.id } },
      access,
    )
    expect(submitted.status).toBe(200)
    expect(submitted.body.total_questions).toBe(started.body.questions.length)
    const report = await server.api<{ quiz: { id: number } }>(
      'GET',
      `/api/results/${submitted.body.attempt_id}/`,
      undefined,
      access,
    )
    expect(report.status).toBe(200)
    expect(report.body.quiz.id).toBe(quizId)
  })
})
