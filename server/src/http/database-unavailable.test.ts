import { describe, expect, it } from 'vitest'
import { buildApp } from '../app'
import { createDatabase } from '../db/database'
import { isDatabaseUnavailable } from '../db/errors'
import { createTokenSigner } from './tokens'
import { FakeClock } from '../lib/clock'
import { MemorySms } from '../../test/memory-sms'
import { testConfig } from '../../test/test-app'
import { databaseUnavailableDetail } from './errors'

describe('a database that cannot be reached', () => {
  it('answers 503 service_unavailable with Retry-After, and health says unreachable', async () => {
    // Nothing listens on port 1: every connection is refused, as while PostgreSQL restarts.
    const config = testConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/quiz' })
    const database = createDatabase(config.database)
    const clock = new FakeClock()
    const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 900, refreshTtl: 3600, clock })
    const app = await buildApp({ config, database, clock, sms: new MemorySms(), tokens }, { logger: false })
    const login = await app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { username: 'sita', password: 'Sagarmatha-8848' },
    })
    expect(login.statusCode).toBe(503)
    expect(login.headers['retry-after']).toBe('5')
    expect(login.json()).toEqual({ detail: databaseUnavailableDetail, code: 'service_unavailable' })
    const health = await app.inject({ method: 'GET', url: '/api/health' })
    expect(health.statusCode).toBe(503)
    expect(health.json()).toEqual({ status: 'error', database: 'unreachable' })
    await app.close()
    await database.destroy()
  })

  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })],
    ['PostgreSQL shutting down (57P01)', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'PostgreSQL starting up (57P03)',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
    ['too many connections (53300)', Object.assign(new Error('too many clients'), { code: '53300' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a wrapped cause', new Error('query failed', { cause: new Error('Connection terminated unexpectedly') })],
    [
      'SQLite still locked after its busy timeout',
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
    ],
    ['a full disk', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })],
  ])('counts %s as unavailable', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true)
  })

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    ['a SQLite constraint', Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' })],
    ['a plain error', new Error('boom')],
  ])('does not count %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false)
  })
})
