import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { useTestApp } from '../../test/test-app'
import { AppError } from './errors'
import { createRateLimiter } from './rate-limit'

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

  it('answers Retry-After until the end of the fixed window, then starts over', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    t.clock.set(Date.parse('2026-11-22T07:00:15.000Z'))
    for (let i = 0; i < 10; i++) await limiter.hit(rule, 'client')
    const refusal = await limiter.hit(rule, 'client').catch((error: AppError) => error)
    expect(refusal).toBeInstanceOf(AppError)
    expect((refusal as AppError).headers).toEqual({ 'retry-after': '45' })
    t.clock.advance(45_000)
    expect(await outcome(limiter.hit(rule, 'client'))).toBe('allowed')
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

  it('drops counters of long-ended windows as it goes', async () => {
    const limiter = createRateLimiter({ database: t.database, clock: t.clock })
    await limiter.hit(rule, 'old')
    t.clock.advance(2 * 24 * 3600_000)
    for (let i = 0; i < 500; i++) await outcome(limiter.hit(rule, 'new'))
    const keys = await t.db.selectFrom('rate_limit_counters').select('key').execute()
    expect(keys.map((k) => k.key)).toEqual(['test:new'])
  })
})
