import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { decodeJwtPart, login, post } from '../../test/auth-requests'

const WINDOW_MS = 15 * 60_000

describe.each(dialects)('tokens on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('logs in with username and password and answers an access and a refresh token', async () => {
    const user = await createUser(t.database, { username: 'Asha' })
    const response = await post(t.app, '/api/token/', { username: 'Asha', password: user.password })
    expect(response.statusCode).toBe(200)
    expect(response.headers['cache-control']).toBe('no-store')
    const { access, refresh } = response.json()
    expect(Object.keys(response.json()).sort()).toEqual(['access', 'refresh'])
    expect(decodeJwtPart(access, 0)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const claims = decodeJwtPart(access, 1)
    expect(claims).toMatchObject({ token_type: 'access', user_id: user.id, username: 'Asha', is_admin: false })
    expect(Number(claims.exp) - Number(claims.iat)).toBe(15 * 60)
    expect(typeof claims.jti).toBe('string')
    expect(decodeJwtPart(refresh, 1)).toMatchObject({ token_type: 'refresh', user_id: user.id })
    const rows = await t.db.selectFrom('refresh_tokens').selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      jti: decodeJwtPart(refresh, 1).jti,
      user_id: user.id,
      rotated_at: null,
      revoked_at: null,
    })
  })

  it('matches usernames case-insensitively and ignores surrounding spaces', async () => {
    const user = await createUser(t.database, { username: 'Asha' })
    const response = await post(t.app, '/api/token/', { username: '  aSHA ', password: user.password })
    expect(response.statusCode).toBe(200)
    expect(decodeJwtPart(response.json().access, 1).username).toBe('Asha')
  })

  it('says is_admin true in the access token of an admin', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const { access } = await login(t.app, admin.username, admin.password)
    expect(decodeJwtPart(access, 1).is_admin).toBe(true)
  })

  it('answers one 401 invalid_credentials message for a wrong password and for an unknown user', async () => {
    const user = await createUser(t.database)
    const wrongPassword = await post(t.app, '/api/token/', { username: user.username, password: 'not-the-password' })
    const unknownUser = await post(t.app, '/api/token/', { username: 'nobody-here', password: user.password })
    expect(wrongPassword.statusCode).toBe(401)
    expect(unknownUser.statusCode).toBe(401)
    expect(wrongPassword.json()).toEqual({ detail: 'Invalid username or password.', code: 'invalid_credentials' })
    expect(unknownUser.json()).toEqual(wrongPassword.json())
  })

  it.each([
    ['a JSON array', []],
    ['a number as username', { username: 42, password: 'x' }],
    ['a missing password', { username: 'someone' }],
    ['an object as password', { username: 'someone', password: { $ne: '' } }],
    ['an empty username', { username: '', password: 'secret-pass' }],
  ])('answers 400 to a login body with %s', async (_label, body) => {
    const response = await post(t.app, '/api/token/', body)
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('validation_error')
  })

  it('answers 400 to a login without a body and to malformed JSON', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/api/token/' })
    expect(empty.statusCode).toBe(400)
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    })
    expect(malformed.statusCode).toBe(400)
  })

  it('serves the token routes without the trailing slash too', async () => {
    const user = await createUser(t.database)
    const response = await post(t.app, '/api/token', { username: user.username, password: user.password })
    expect(response.statusCode).toBe(200)
  })

  it('rotates a refresh token: the new pair works and the old refresh token stops working', async () => {
    const user = await createUser(t.database)
    const first = await login(t.app, user.username, user.password)
    t.clock.advance(1000)
    const rotated = await post(t.app, '/api/token/refresh/', { refresh: first.refresh })
    expect(rotated.statusCode).toBe(200)
    const second = rotated.json()
    expect(second.refresh).not.toBe(first.refresh)
    expect(decodeJwtPart(second.access, 1)).toMatchObject({ token_type: 'access', user_id: user.id })
    expect(decodeJwtPart(second.refresh, 1).family_id).toBe(decodeJwtPart(first.refresh, 1).family_id)
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile/',
      headers: { authorization: `Bearer ${second.access}` },
    })
    expect(profile.statusCode).toBe(200)
    const third = await post(t.app, '/api/token/refresh/', { refresh: second.refresh })
    expect(third.statusCode).toBe(200)
  })

  it('revokes the whole family when a rotated refresh token is reused', async () => {
    const user = await createUser(t.database)
    const first = await login(t.app, user.username, user.password)
    const second = (await post(t.app, '/api/token/refresh/', { refresh: first.refresh })).json()
    const third = (await post(t.app, '/api/token/refresh/', { refresh: second.refresh })).json()

    const reuse = await post(t.app, '/api/token/refresh/', { refresh: first.refresh })
    expect(reuse.statusCode).toBe(401)
    expect(reuse.json().code).toBe('not_authenticated')
    // The latest token of the family, never used, is dead too.
    expect((await post(t.app, '/api/token/refresh/', { refresh: third.refresh })).statusCode).toBe(401)
    const live = await t.db.selectFrom('refresh_tokens').select('jti').where('revoked_at', 'is', null).execute()
    expect(live).toEqual([])
  })

  it('leaves other logins of the same user alone when one family is revoked for reuse', async () => {
    const user = await createUser(t.database)
    const phone = await login(t.app, user.username, user.password)
    const laptop = await login(t.app, user.username, user.password)
    await post(t.app, '/api/token/refresh/', { refresh: phone.refresh })
    await post(t.app, '/api/token/refresh/', { refresh: phone.refresh })
    expect((await post(t.app, '/api/token/refresh/', { refresh: laptop.refresh })).statusCode).toBe(200)
  })

  it('lets exactly one of two simultaneous refreshes with one token rotate it', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    const answers = await Promise.all([
      post(t.app, '/api/token/refresh/', { refresh: pair.refresh }),
      post(t.app, '/api/token/refresh/', { refresh: pair.refresh }),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401])
    const rotatedRows = await t.db
      .selectFrom('refresh_tokens')
      .select('jti')
      .where('rotated_at', 'is not', null)
      .execute()
    expect(rotatedRows).toHaveLength(1)
  })

  it('puts fresh claims from the database into the access token of a refresh', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    await t.db.updateTable('memberships').set({ is_admin: 1 }).where('user_id', '=', user.id).execute()
    const rotated = (await post(t.app, '/api/token/refresh/', { refresh: pair.refresh })).json()
    expect(decodeJwtPart(rotated.access, 1).is_admin).toBe(true)
  })

  it('refuses an expired refresh token', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    t.clock.advance(7 * 24 * 3600_000 + 1000)
    const response = await post(t.app, '/api/token/refresh/', { refresh: pair.refresh })
    expect(response.statusCode).toBe(401)
  })

  it('refuses an access token presented as a refresh token, and a refresh token as an access token', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    expect((await post(t.app, '/api/token/refresh/', { refresh: pair.access })).statusCode).toBe(401)
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile/',
      headers: { authorization: `Bearer ${pair.refresh}` },
    })
    expect(profile.statusCode).toBe(401)
  })

  it('refuses alg none tokens', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    const unsigned = (token: string) => {
      const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')
      return `${header}.${token.split('.')[1]}.`
    }
    expect((await post(t.app, '/api/token/refresh/', { refresh: unsigned(pair.refresh) })).statusCode).toBe(401)
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/users/profile/',
      headers: { authorization: `Bearer ${unsigned(pair.access)}` },
    })
    expect(profile.statusCode).toBe(401)
  })

  it('refuses a token signed with another algorithm, even with the right secret', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    const resign = (token: string) => {
      const header = Buffer.from(JSON.stringify({ alg: 'HS512', typ: 'JWT' })).toString('base64url')
      const body = token.split('.')[1]
      const signature = createHmac('sha512', t.config.jwtSecret).update(`${header}.${body}`).digest('base64url')
      return `${header}.${body}.${signature}`
    }
    expect((await post(t.app, '/api/token/refresh/', { refresh: resign(pair.refresh) })).statusCode).toBe(401)
  })

  it('refuses a refresh token whose signature was tampered with', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    const [header, , signature] = pair.refresh.split('.')
    const forged = Buffer.from(JSON.stringify({ ...decodeJwtPart(pair.refresh, 1), user_id: 999 })).toString(
      'base64url',
    )
    expect((await post(t.app, '/api/token/refresh/', { refresh: `${header}.${forged}.${signature}` })).statusCode).toBe(
      401,
    )
    expect((await post(t.app, '/api/token/refresh/', { refresh: 'not-a-jwt' })).statusCode).toBe(401)
  })

  it('answers 400 to a refresh body of the wrong shape', async () => {
    expect((await post(t.app, '/api/token/refresh/', { refresh: 12 })).statusCode).toBe(400)
    const jsonString = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      headers: { 'content-type': 'application/json' },
      payload: '"just a string"',
    })
    expect(jsonString.statusCode).toBe(400)
    expect((await post(t.app, '/api/token/revoke/', {})).statusCode).toBe(400)
  })

  it("revokes the login's refresh tokens on logout with 204", async () => {
    const user = await createUser(t.database)
    const first = await login(t.app, user.username, user.password)
    const second = (await post(t.app, '/api/token/refresh/', { refresh: first.refresh })).json()
    const other = await login(t.app, user.username, user.password)

    const revoke = await post(t.app, '/api/token/revoke/', { refresh: second.refresh })
    expect(revoke.statusCode).toBe(204)
    expect(revoke.body).toBe('')
    expect((await post(t.app, '/api/token/refresh/', { refresh: second.refresh })).statusCode).toBe(401)
    // Another device's login stays signed in.
    expect((await post(t.app, '/api/token/refresh/', { refresh: other.refresh })).statusCode).toBe(200)
    // Logging out twice is harmless.
    expect((await post(t.app, '/api/token/revoke/', { refresh: second.refresh })).statusCode).toBe(204)
  })

  it('answers 401 to a logout with a token that is not ours', async () => {
    expect((await post(t.app, '/api/token/revoke/', { refresh: 'garbage.token.here' })).statusCode).toBe(401)
  })

  it('answers 429 with Retry-After after 10 failures for one username to the addresses that failed', async () => {
    const user = await createUser(t.database)
    t.clock.set(Math.ceil(t.clock.now() / WINDOW_MS) * WINDOW_MS + 60_000)
    for (let i = 0; i < 10; i++) {
      // From different addresses: the account's total counts them all.
      const failed = await post(
        t.app,
        '/api/token/',
        { username: user.username.toUpperCase(), password: `wrong-${i}` },
        `10.0.0.${i + 1}`,
      )
      expect(failed.statusCode).toBe(401)
    }
    const locked = await post(t.app, '/api/token/', { username: user.username, password: user.password }, '10.0.0.1')
    expect(locked.statusCode).toBe(429)
    expect(locked.json().code).toBe('rate_limited')
    // 11 failures in the window that began a minute ago weigh 11 × w in the next one: room for one once w <= 9/11.
    expect(locked.headers['retry-after']).toBe(String(Math.ceil(14 * 60 + 15 * 60 * (2 / 11))))
    // A new address has one try: wrong, and it is refused from then on too.
    const guess = await post(t.app, '/api/token/', { username: user.username, password: 'wrong-x' }, '10.0.2.1')
    expect(guess.statusCode).toBe(401)
    const again = await post(t.app, '/api/token/', { username: user.username, password: user.password }, '10.0.2.1')
    expect(again.statusCode).toBe(429)

    t.clock.advance(Number(again.headers['retry-after']) * 1000)
    const after = await post(t.app, '/api/token/', { username: user.username, password: user.password }, '10.0.0.1')
    expect(after.statusCode).toBe(200)
  })

  it('lets the owner in from an address without failures while a stranger has locked the account', async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    for (let i = 0; i < 12; i++) {
      const guess = await post(t.app, '/api/token/', { username: admin.username, password: `wrong-${i}` }, '10.9.9.9')
      expect(guess.statusCode).toBe(i < 10 ? 401 : 429)
    }
    const owner = await post(t.app, '/api/token/', { username: admin.username, password: admin.password }, '10.1.1.1')
    expect(owner.statusCode).toBe(200)
    // The stranger's address stays refused, even with the right password.
    const stranger = await post(
      t.app,
      '/api/token/',
      { username: admin.username, password: admin.password },
      '10.9.9.9',
    )
    expect(stranger.statusCode).toBe(429)
  })

  it("writes an admin's failed logins and a lock-out in the audit trail, with the address", async () => {
    const admin = await createUser(t.database, { is_admin: 1 })
    const learner = await createUser(t.database)
    for (let i = 0; i < 11; i++) {
      await post(t.app, '/api/token/', { username: admin.username, password: `wrong-${i}` }, '10.9.9.9')
      await post(t.app, '/api/token/', { username: learner.username, password: `wrong-${i}` }, '10.9.9.8')
    }
    // Refused again: the lock-out is recorded once.
    await post(t.app, '/api/token/', { username: admin.username, password: 'wrong' }, '10.9.9.9')
    const events = await t.db
      .selectFrom('audit_events')
      .select(['action', 'entity_id', 'client_address', 'actor_id', 'after_json'])
      .orderBy('id')
      .execute()
    const ofAdmin = events.filter((event) => event.entity_id === admin.id)
    expect(ofAdmin.filter((event) => event.action === 'login_failed')).toHaveLength(10)
    expect(ofAdmin.filter((event) => event.action === 'login_locked')).toEqual([
      {
        action: 'login_locked',
        entity_id: admin.id,
        client_address: '10.9.9.9',
        actor_id: null,
        after_json: JSON.stringify({ address: '10.9.9.9', locked: 'address' }),
      },
    ])
    // A learner's wrong passwords are not each written; the lock-out is.
    expect(events.filter((event) => event.entity_id === learner.id).map((event) => event.action)).toEqual([
      'login_locked',
    ])
  })

  it('does not count successful logins as failures', async () => {
    const user = await createUser(t.database)
    for (let i = 0; i < 9; i++) {
      await post(t.app, '/api/token/', { username: user.username, password: 'wrong-password' })
    }
    await login(t.app, user.username, user.password)
    await login(t.app, user.username, user.password)
    const counter = await t.db
      .selectFrom('rate_limit_counters')
      .select('hits')
      .where('key', 'like', 'login-failures:%')
      .executeTakeFirstOrThrow()
    expect(counter.hits).toBe(9)
  })
})

describe.each(dialects)('login limit per client address on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_LOGIN_PER_IP: '3' })

  it('answers 429 with Retry-After once an address has made RATE_LIMIT_LOGIN_PER_IP attempts', async () => {
    const user = await createUser(t.database)
    await login(t.app, user.username, user.password)
    await post(t.app, '/api/token/', { username: 'someone-else', password: 'whatever-pass' })
    await login(t.app, user.username, user.password)
    const refused = await post(t.app, '/api/token/', { username: user.username, password: user.password })
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
    // Another address is not affected.
    expect(
      (await post(t.app, '/api/token/', { username: user.username, password: user.password }, '192.0.2.7')).statusCode,
    ).toBe(200)
  })
})

describe.each(dialects)('refresh limit per client address on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_REFRESH_PER_IP_HOUR: '2' })

  it('answers 429 once an address has made RATE_LIMIT_REFRESH_PER_IP_HOUR refreshes and logouts in an hour', async () => {
    const user = await createUser(t.database)
    const pair = await login(t.app, user.username, user.password)
    const second = (await post(t.app, '/api/token/refresh/', { refresh: pair.refresh })).json()
    expect((await post(t.app, '/api/token/revoke/', { refresh: second.refresh })).statusCode).toBe(204)
    const refused = await post(t.app, '/api/token/refresh/', { refresh: second.refresh })
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBeDefined()
  })
})
