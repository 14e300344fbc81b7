import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openLiveMock } from '../../test/live-mock'
import { useTestApp } from '../../test/test-app'
import { decodeJwtPart, login, post } from '../../test/auth-requests'

const DAY = 24 * 3600_000
const lifetimeDays = (refresh: string) => {
  const claims = decodeJwtPart(refresh, 1)
  return (Number(claims.exp) - Number(claims.iat)) / 86_400
}

// API.md "Live mocks", "No SMS in the join window" (docs/decisions/069).
describe.each(dialects)('a registered learner stays signed in on %s', (dialect) => {
  const t = useTestApp(dialect)
  const register = (user: UserRow, quizId: number) =>
    t.db
      .insertInto('live_registrations')
      .values({ quiz_id: quizId, user_id: user.id, created_at: t.clock.now() })
      .execute()
  const refresh = (token: string) => post(t.app, '/api/token/refresh/', { refresh: token })

  it('gives a registered learner 30-day refresh tokens that rotate, and others 7 days', async () => {
    const mock = await openLiveMock(t)
    const [registered, other] = [await createUser(t.database), await createUser(t.database)]
    await register(registered, mock.id)
    const kept = await login(t.app, registered.username, registered.password)
    const plain = await login(t.app, other.username, other.password)
    expect(lifetimeDays(kept.refresh)).toBe(30)
    expect(lifetimeDays(plain.refresh)).toBe(7)
    const row = await t.db
      .selectFrom('refresh_tokens')
      .select('expires_at')
      .where('jti', '=', String(decodeJwtPart(kept.refresh, 1).jti))
      .executeTakeFirstOrThrow()
    expect(Number(row.expires_at)).toBe(Math.floor(t.clock.now() / 1000) * 1000 + 30 * DAY)

    // Registered after signing in: the next refresh carries the longer life.
    t.clock.advance(DAY)
    expect(lifetimeDays((await refresh(plain.refresh)).json().refresh)).toBe(7)

    t.clock.advance(8 * DAY)
    expect((await refresh(plain.refresh)).statusCode).toBe(401)
    const rotated = await refresh(kept.refresh)
    expect(rotated.statusCode).toBe(200)
    expect((await refresh(kept.refresh)).statusCode).toBe(401)
  })

  it('lasts until the mock ends when that is later than 30 days, and falls back to 7 days after it', async () => {
    const startsAt = t.clock.now() + 40 * DAY
    const mock = await openLiveMock(t, { live_starts_at: startsAt })
    const learner = await createUser(t.database)
    await register(learner, mock.id)
    const pair = await login(t.app, learner.username, learner.password)
    const claims = decodeJwtPart(pair.refresh, 1)
    expect(Number(claims.exp) * 1000).toBeGreaterThanOrEqual(startsAt + 30 * 60_000)
    expect(Number(claims.exp) * 1000).toBeLessThan(startsAt + 30 * 60_000 + 2000)

    // In the mock, still 30 days; once it has ended, the default again.
    t.clock.set(startsAt + 29 * 60_000)
    const during = await refresh(pair.refresh)
    expect(during.statusCode).toBe(200)
    expect(lifetimeDays(during.json().refresh)).toBe(30)
    t.clock.set(startsAt + 30 * 60_000)
    const after = await refresh(during.json().refresh)
    expect(after.statusCode).toBe(200)
    expect(lifetimeDays(after.json().refresh)).toBe(7)
  })

  it('ignores a registration for a deleted mock', async () => {
    const mock = await openLiveMock(t)
    const learner = await createUser(t.database)
    await register(learner, mock.id)
    await t.db.updateTable('quizzes').set({ deleted_at: t.clock.now() }).where('id', '=', mock.id).execute()
    expect(lifetimeDays((await login(t.app, learner.username, learner.password)).refresh)).toBe(7)
  })

  it('never lives past its login cap (SESSION_MAX_DAYS, 90), however far the mock or often the rotation (issue 72)', async () => {
    const signedInAt = t.clock.now()
    const cap = signedInAt + 90 * DAY
    const far = await openLiveMock(t, { live_starts_at: signedInAt + 400 * DAY })
    const learner = await createUser(t.database)
    await register(learner, far.id)
    let token = (await login(t.app, learner.username, learner.password)).refresh
    expect(Number(decodeJwtPart(token, 1).exp) * 1000).toBeLessThanOrEqual(cap)
    // Rotated every 20 days, each token still ends by the cap; at the cap the login is over.
    for (let day = 20; day < 90; day += 20) {
      t.clock.set(signedInAt + day * DAY)
      const rotated = await refresh(token)
      expect(rotated.statusCode).toBe(200)
      token = rotated.json().refresh
      expect(Number(decodeJwtPart(token, 1).exp) * 1000).toBeLessThanOrEqual(cap)
    }
    t.clock.set(cap)
    expect((await refresh(token)).statusCode).toBe(401)
    // A new sign-in starts a new login with its whole life ahead.
    expect(lifetimeDays((await login(t.app, learner.username, learner.password)).refresh)).toBe(90)
  })
})
