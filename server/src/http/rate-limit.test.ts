import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { useTestApp } from '../../test/test-app'
import { AppError } from './errors'
import { createRateLimiter, retryAfterMs } from './rate-limit'

const rule = { name: 'test', limit: 10, windowSeconds: 60 }

async function outcome(promise: Promise<unknown>) {
  try {
    await promise
    return 'allowed'
  } catch (error) {
    if (error instanceof AppError && error.status === 429) return 'limited'
    throw error
  }
}

describe.each(dialects)('rate limiter on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('allows exactly `limit` of many simultaneous hits and counts every one', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    const results = await Promise.all(Array.from({ length: 40 }, () => outcome(limiter.hit(rule, 'client'))))
    expect(results.filter((r) => r === 'allowed')).toHaveLength(10)
    const row = await t.db.selectFrom('rate_limit_counters').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ key: 'test:client', hits: 40 })
  })

  it('shares counters between limiters, as between app processes', async () => {
    const first = createRateLimiter({ database: t.database, clock: t.clock })
    const second = createRateLimiter({ database: t.database, clock: t.clock })
    for (let i = 0; i < 5; i++) await first.hit(rule, 'client')
    for (let i = 0; i < 5; i++) await second.hit(rule, 'client')
    expect(await outcome(first.hit(rule, 'client'))).toBe('limited')
  })

  it('lets no more than `limit` through in any span of the window, also across a window boundary', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    // The last 10 seconds of one fixed window, then the first 10 of the next: a fixed window let 20 through.
    t.clock.set(Date.parse('2026-11-22T07:00:50.000Z'))
    const results: string[] = []
    for (let i = 0; i < 10; i++) results.push(await outcome(limiter.hit(rule, 'client')))
    t.clock.set(Date.parse('2026-11-22T07:01:05.000Z'))
    for (let i = 0; i < 10; i++) results.push(await outcome(limiter.hit(rule, 'client')))
    expect(results.filter((r) => r === 'allowed')).toHaveLength(10)
  })

  it('answers Retry-After until one more hit fits, then allows it', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    t.clock.set(Date.parse('2026-11-22T07:00:15.000Z'))
    for (let i = 0; i < 10; i++) await limiter.hit(rule, 'client')
    const refusal = await limiter.hit(rule, 'client').catch((error: AppError) => error)
    expect(refusal).toBeInstanceOf(AppError)
    // 11 hits in the window from :00: in the next one they weigh 11 × (1 - elapsed / 60) + 1 <= 10 from 07:01:10.91.
    expect((refusal as AppError).headers).toEqual({ 'retry-after': '56' })
    t.clock.advance(56_000)
    expect(await outcome(limiter.hit(rule, 'client'))).toBe('allowed')
  })

  it('says when one more hit fits, while the previous window fades or into the next', () => {
    const window = { start: 60_000, windowMs: 60_000, now: 75_000 }
    // 4 of the previous window and 5 of this one, limit 10: at once (the weighted 4 leave room for one).
    expect(retryAfterMs(10, { ...window, previous: 4, current: 5 })).toBe(0)
    // 12 before and 5 now: 12 × w + 6 <= 10 once w <= 1/3, at 100 s.
    expect(retryAfterMs(10, { ...window, previous: 12, current: 5 })).toBe(25_000)
    // 11 now: into the next window, 11 × w + 1 <= 10 once w <= 9/11.
    expect(retryAfterMs(10, { ...window, previous: 0, current: 11 })).toBeCloseTo(45_000 + 60_000 * (2 / 11))
  })

  it('keeps subjects apart', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    for (let i = 0; i < 10; i++) await limiter.hit(rule, 'a')
    expect(await outcome(limiter.hit(rule, 'a'))).toBe('limited')
    expect(await outcome(limiter.hit(rule, 'b'))).toBe('allowed')
  })

  it('gives a refunded hit back and forgets a cleared subject', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    for (let i = 0; i < 9; i++) await limiter.hit(rule, 'client')
    const last = await limiter.hit(rule, 'client')
    await last.refund()
    expect(await outcome(limiter.hit(rule, 'client'))).toBe('allowed')
    expect(await outcome(limiter.hit(rule, 'client'))).toBe('limited')
    await limiter.clear(rule, 'client')
    expect(await outcome(limiter.hit(rule, 'client'))).toBe('allowed')
  })

  it('forgets the subjects under a prefix, reading `_` as itself', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    for (const subject of ['a_b@1', 'a_b@2', 'axb@1']) for (let i = 0; i < 10; i++) await limiter.hit(rule, subject)
    await limiter.clearPrefix(rule, 'a_b@')
    expect(await outcome(limiter.hit(rule, 'a_b@1'))).toBe('allowed')
    expect(await outcome(limiter.hit(rule, 'a_b@2'))).toBe('allowed')
    expect(await outcome(limiter.hit(rule, 'axb@1'))).toBe('limited')
  })

  it('drops counters of long-ended windows as it goes', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    await limiter.hit(rule, 'old')
    t.clock.advance(2 * 24 * 3600_000)
    for (let i = 0; i < 500; i++) await outcome(limiter.hit(rule, 'new'))
    const keys = await t.db.selectFrom('rate_limit_counters').select('key').execute()
    expect(keys.map((k) => k.key)).toEqual(['test:new'])
  })
})
