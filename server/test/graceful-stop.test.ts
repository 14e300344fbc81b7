import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createDatabase } from '../src/db/database'
import { createTokenSigner } from '../src/http/tokens'
import { drainingDetail } from '../src/http/draining'
import { systemClock } from '../src/lib/clock'
import { bearerFor, createQuiz, createUser } from './factories'
import { FakeGateway } from './fake-sms-gateway'
import { request, startServerProcess } from './server-process'
import { testConfig } from './test-app'

const SECRET = 'graceful-stop-secret-graceful-stop-0123'

/** A raw keep-alive connection: what a browser holds open between an exam's autosaves. */
async function openConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let received = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (received += chunk))
  const closed = once(socket, 'close')
  return {
    send: (method: string, url: string, body: unknown) => {
      const text = JSON.stringify(body)
      socket.write(
        `${method} ${url} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
      )
    },
    /** Resolves with everything received once it contains `count` complete responses (by their JSON bodies). */
    async responses(count: number) {
      while ((received.match(/\r\n\r\n\{[^\r]*\}/g) ?? []).length < count) await once(socket, 'data')
      return received
    },
    closed,
  }
}

describe('stopping the server with SIGTERM', () => {
  let dataDir: string
  const gateway = new FakeGateway()
  // A failed expectation leaves its server running: it would outlive the test run.
  const started: { child: { exitCode: number | null; kill: (signal: NodeJS.Signals) => boolean } }[] = []
  beforeEach(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quiz-stop-'))
    await gateway.start()
  })
  afterEach(async () => {
    for (const server of started.splice(0)) if (server.child.exitCode === null) server.child.kill('SIGKILL')
    await gateway.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('finishes the request in flight, refuses new ones, exits 0, and keeps an autosave acknowledged before', async () => {
    // The gateway holds a code request until the test releases it: the sender's timeout must outlast the steps in
    // between however slow the machine (the server's own 25 s limit on a stop still bounds the test).
    const env = {
      DATA_DIR: dataDir,
      JWT_SECRET: SECRET,
      SMS_PROVIDER: 'http',
      SMS_GATEWAY_URL: gateway.url(),
      SMS_TIMEOUT_MS: '60000',
    }
    const server = await startServerProcess(env)
    started.push(server)

    // A learner and a quiz, written into the server's file by this process (as another server process would).
    const database = createDatabase(testConfig({ DATA_DIR: dataDir }).database)
    const learner = await createUser(database)
    const { quiz, questionIds, correctOptionIds } = await createQuiz(database)
    await database.destroy()
    const tokens = createTokenSigner({ secret: SECRET, accessTtl: 3600, refreshTtl: 3600, clock: systemClock })
    const headers = await bearerFor(tokens, learner)
    expect((await request(server.baseUrl, 'GET', `/api/quizzes/${quiz.id}/`, { headers })).status).toBe(200)
    const saved = await request(server.baseUrl, 'PUT', `/api/quizzes/${quiz.id}/answers/`, {
      headers,
      body: { answers: { [questionIds[0]!]: correctOptionIds[0] } },
    })
    expect(saved).toEqual({ status: 200, body: { saved: 1 } })

    // A registration code request is in flight (the SMS gateway holds it) on a keep-alive connection.
    gateway.hold()
    const connection = await openConnection(server.port)
    connection.send('POST', '/api/users/otp/send/', { phone_number: '9841000001', purpose: 'register' })
    await gateway.arrived(1)

    server.child.kill('SIGTERM')
    // The listening socket closes first: new connections are refused while the request in flight goes on.
    for (let tries = 0; ; tries++) {
      const refused = await request(server.baseUrl, 'GET', '/api/health').then(
        () => false,
        (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
      )
      if (refused) break
      if (tries > 200) throw new Error('the server kept accepting connections after SIGTERM')
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(server.child.exitCode).toBeNull()

    gateway.release()
    const first = await connection.responses(1)
    expect(first).toMatch(/^HTTP\/1\.1 200 /)
    expect(first).toContain('"detail"')
    // The next request on that open connection is refused in API.md's format, and the connection is closed.
    connection.send('PUT', `/api/quizzes/${quiz.id}/answers/`, { answers: {} })
    const both = await connection.responses(2)
    const second = both.slice(both.indexOf('HTTP/1.1', 10))
    expect(second).toMatch(/^HTTP\/1\.1 503 /)
    expect(second.toLowerCase()).toContain('connection: close')
    expect(second.toLowerCase()).toContain('retry-after: 5')
    expect(second).toContain(JSON.stringify({ detail: drainingDetail, code: 'service_unavailable' }))
    await connection.closed

    expect(await server.exited).toEqual({ code: 0, signal: null })
    expect(server.log()).toContain('stopping: finishing requests in flight')

    // After a restart the acknowledged autosave is there, and so is the code the finished request stored.
    const again = await startServerProcess(env)
    started.push(again)
    const resumed = await request(again.baseUrl, 'GET', `/api/quizzes/${quiz.id}/`, { headers })
    expect((resumed.body as { attempt: { answers: unknown } }).attempt.answers).toEqual({
      [questionIds[0]!]: correctOptionIds[0],
    })
    const check = await request(again.baseUrl, 'POST', '/api/users/otp/send/', {
      body: { phone_number: '9841000001', purpose: 'register' },
    })
    expect(check.status).toBe(429) // the stored code's resend cooldown: the request before the stop completed
    again.child.kill('SIGTERM')
    expect(await again.exited).toEqual({ code: 0, signal: null })
  })
})
