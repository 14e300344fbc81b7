import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { useTestApp, type TestApp } from '../../test/test-app'
import { decodeJwtPart, multipart, post, verifyPhoneForRegistration } from '../../test/auth-requests'

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 13; SM-A515F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36'
const WINDOWS_FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0'
const NEW_PASSWORD = 'Naya-Sabda-2026'
const MINUTE = 60_000

/**
 * A login from 10.0.0.1 whose request says it was forwarded for 203.0.113.99 (or `forwarded`); answers the sessions
 * it then lists.
 */
async function logInThroughProxy(t: TestApp, forwarded = '203.0.113.99') {
  const user = await createUser(t.database)
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/token/',
    payload: { username: user.username, password: user.password },
    headers: { 'x-forwarded-for': forwarded },
    remoteAddress: '10.0.0.1',
  })
  const listed = await t.app.inject({
    method: 'GET',
    url: '/api/auth/sessions/',
    headers: { authorization: `Bearer ${response.json().access}` },
  })
  return listed.json() as { client_address: string; device: string }[]
}

describe.each(dialects)('active logins and password change on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_LOGIN_PER_USERNAME: '3' })

  async function logIn(
    user: { username: string; password: string },
    { userAgent = ANDROID_CHROME, address = '203.0.113.7' } = {},
  ) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      payload: { username: user.username, password: user.password },
      headers: { 'user-agent': userAgent },
      remoteAddress: address,
    })
    expect(response.statusCode).toBe(200)
    const tokens = response.json() as { access: string; refresh: string }
    return { ...tokens, headers: { authorization: `Bearer ${tokens.access}` } }
  }

  const refresh = (refreshToken: string, userAgent = ANDROID_CHROME) =>
    t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: refreshToken },
      headers: { 'user-agent': userAgent },
      remoteAddress: '198.51.100.9',
    })
  const sessions = async (headers: Record<string, string>) => {
    const response = await t.app.inject({ method: 'GET', url: '/api/auth/sessions/', headers })
    expect(response.statusCode).toBe(200)
    return response.json() as { id: string; device: string; client_address: string; current: boolean }[]
  }
  const events = () => t.db.selectFrom('audit_events').selectAll().orderBy('id').execute()

  describe('GET /api/auth/sessions/', () => {
    it('lists each live login with its device, address and times, the current one marked', async () => {
      const user = await createUser(t.database)
      const phone = await logIn(user)
      t.clock.advance(MINUTE)
      const laptop = await logIn(user, { userAgent: WINDOWS_FIREFOX, address: '192.0.2.44' })
      expect(decodeJwtPart(laptop.access, 1).sid).toBe(decodeJwtPart(laptop.refresh, 1).family_id)

      const listed = await sessions(laptop.headers)
      expect(listed).toEqual([
        {
          id: decodeJwtPart(laptop.refresh, 1).family_id,
          device: 'Firefox on Windows',
          client_address: '192.0.2.44',
          created_at: new Date(t.clock.now()).toISOString(),
          last_used_at: new Date(t.clock.now()).toISOString(),
          current: true,
        },
        expect.objectContaining({ device: 'Chrome on Android', client_address: '203.0.113.7', current: false }),
      ])
      expect((await sessions(phone.headers)).map((s) => s.current)).toEqual([false, true])
    })

    it('moves last use, device and address on refresh, and drops logins that ended', async () => {
      const user = await createUser(t.database)
      const first = await logIn(user)
      const second = await logIn(user)
      t.clock.advance(10 * MINUTE)
      const rotated = await refresh(first.refresh, WINDOWS_FIREFOX)
      expect(rotated.statusCode).toBe(200)
      const listed = await sessions({ authorization: `Bearer ${rotated.json().access}` })
      expect(listed[0]).toMatchObject({
        current: true,
        device: 'Firefox on Windows',
        client_address: '198.51.100.9',
        last_used_at: new Date(t.clock.now()).toISOString(),
      })
      await post(t.app, '/api/token/revoke/', { refresh: second.refresh })
      expect(await sessions({ authorization: `Bearer ${rotated.json().access}` })).toHaveLength(1)
    })

    it('reads the address from X-Forwarded-For only with TRUST_PROXY', async () => {
      expect((await logInThroughProxy(t))[0]).toMatchObject({ client_address: '10.0.0.1', device: '' })
    })

    it('answers 401 without a token', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/api/auth/sessions/' })
      expect(response.statusCode).toBe(401)
      expect(response.json().code).toBe('not_authenticated')
    })
  })

  // An access token lives on for its 15 minutes after its login is logged out; a stolen copy must not manage the
  // learner's logins or password meanwhile.
  describe('the access token of a login that was logged out', () => {
    it('is refused on the session and password routes, and still works elsewhere', async () => {
      const user = await createUser(t.database)
      const thief = await logIn(user)
      const owner = await logIn(user, { userAgent: WINDOWS_FIREFOX })
      const ownerSession = (await sessions(owner.headers)).find((s) => s.current)!
      const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
        t.app.inject({ method, url, headers: thief.headers, ...(payload && { payload }) })
      expect((await inject('GET', '/api/auth/sessions/')).statusCode).toBe(200)

      expect((await post(t.app, '/api/token/revoke/', { refresh: thief.refresh })).statusCode).toBe(204)

      expect((await inject('GET', '/api/auth/sessions/')).statusCode).toBe(401)
      expect((await inject('DELETE', `/api/auth/sessions/${ownerSession.id}/`)).statusCode).toBe(401)
      expect((await inject('POST', '/api/auth/sessions/revoke-others/')).statusCode).toBe(401)
      const change = await inject('POST', '/api/users/password/', {
        current_password: user.password,
        password: NEW_PASSWORD,
        password2: NEW_PASSWORD,
      })
      expect(change.statusCode).toBe(401)
      expect(await sessions(owner.headers)).toHaveLength(1)
      expect((await inject('GET', '/api/users/profile/')).statusCode).toBe(200)
    })
  })

  describe('logging out another login', () => {
    it('DELETE ends that login: its refresh is refused, this one goes on, and it is audited', async () => {
      const user = await createUser(t.database)
      const phone = await logIn(user)
      const laptop = await logIn(user, { userAgent: WINDOWS_FIREFOX })
      const phoneId = decodeJwtPart(phone.refresh, 1).family_id as string
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${phoneId}/`,
        headers: laptop.headers,
      })
      expect(response.statusCode).toBe(204)
      expect((await refresh(phone.refresh)).statusCode).toBe(401)
      expect((await refresh(laptop.refresh)).statusCode).toBe(200)
      expect(await events()).toMatchObject([
        {
          actor_id: user.id,
          action: 'logout',
          entity_type: 'user',
          entity_id: user.id,
          after_json: JSON.stringify({ logins: [{ device: 'Chrome on Android', client_address: '203.0.113.7' }] }),
        },
      ])
    })

    it.each([
      ['another user’s login', 'other'],
      ['a login already over', 'over'],
      ['an unknown id', 'unknown'],
      ['an id that is not one', 'malformed'],
    ])('answers 404 to %s and changes nothing', async (_name, kind) => {
      const user = await createUser(t.database)
      const mine = await logIn(user)
      const stranger = await logIn(await createUser(t.database))
      const over = await logIn(user)
      await post(t.app, '/api/token/revoke/', { refresh: over.refresh })
      const id = {
        other: decodeJwtPart(stranger.refresh, 1).family_id,
        over: decodeJwtPart(over.refresh, 1).family_id,
        unknown: '0b8f5f0e-3c5a-4d8e-9a43-1f0a8c7e2b11',
        malformed: 'not-a-login',
      }[kind]
      const response = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${id}/`, headers: mine.headers })
      expect(response.statusCode).toBe(404)
      expect(response.json().code).toBe('not_found')
      expect((await refresh(stranger.refresh)).statusCode).toBe(200)
      expect(await events()).toEqual([])
    })

    it('POST revoke-others ends every login but this one', async () => {
      const user = await createUser(t.database)
      const others = [await logIn(user), await logIn(user, { userAgent: WINDOWS_FIREFOX })]
      const mine = await logIn(user)
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sessions/revoke-others/',
        headers: mine.headers,
      })
      expect(response.statusCode).toBe(200)
      expect(response.json()).toEqual({ revoked: 2 })
      for (const other of others) expect((await refresh(other.refresh)).statusCode).toBe(401)
      expect((await sessions(mine.headers)).map((s) => s.current)).toEqual([true])
      expect(await events()).toHaveLength(1)
      // Nothing left to end: no event for nothing.
      const again = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sessions/revoke-others/',
        headers: mine.headers,
      })
      expect(again.json()).toEqual({ revoked: 0 })
      expect(await events()).toHaveLength(1)
    })
  })

  describe('POST /api/users/password/', () => {
    const change = (headers: Record<string, string>, body: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: '/api/users/password/', headers, payload: body })

    it('changes the password, logs out the other logins, keeps this one, and audits it without secrets', async () => {
      const user = await createUser(t.database)
      const other = await logIn(user)
      const mine = await logIn(user)
      const response = await change(mine.headers, {
        current_password: user.password,
        password: NEW_PASSWORD,
        password2: NEW_PASSWORD,
      })
      expect(response.statusCode).toBe(200)
      expect(response.json().detail).toMatch(/other logins have been logged out/)
      expect((await refresh(other.refresh)).statusCode).toBe(401)
      expect((await refresh(mine.refresh)).statusCode).toBe(200)
      await logIn({ username: user.username, password: NEW_PASSWORD })
      const [event] = await events()
      expect(event).toMatchObject({ action: 'password_change', actor_id: user.id, entity_id: user.id })
      expect(JSON.parse(event!.after_json!)).toEqual({ password: 'changed', logged_out: 'others' })
      const stored = await t.db.selectFrom('users').select('password_hash').where('id', '=', user.id).executeTakeFirst()
      expect(JSON.stringify(await events())).not.toContain(stored!.password_hash)
      expect(JSON.stringify(await events())).not.toContain(NEW_PASSWORD)
    })

    it('refuses a wrong current password with 400 on its field, changes nothing, and counts it as a failed login', async () => {
      const user = await createUser(t.database)
      const mine = await logIn(user)
      const wrong = { current_password: 'not-my-password', password: NEW_PASSWORD, password2: NEW_PASSWORD }
      const response = await change(mine.headers, wrong)
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({
        code: 'validation_error',
        errors: { current_password: ['Your current password is not correct.'] },
      })
      expect(await events()).toEqual([])
      expect((await refresh(mine.refresh)).statusCode).toBe(200)
      // RATE_LIMIT_LOGIN_PER_USERNAME is 3 here: two more wrong tries, then the username is locked at login too.
      for (let i = 0; i < 2; i++) expect((await change(mine.headers, wrong)).statusCode).toBe(400)
      expect((await change(mine.headers, wrong)).statusCode).toBe(429)
      const login = await post(t.app, '/api/token/', { username: user.username, password: user.password })
      expect(login.statusCode).toBe(429)
    })

    it.each([
      [{ password: 'short', password2: 'short' }, 'password'],
      [{ password: '12345678901', password2: '12345678901' }, 'password'],
      [{ password: NEW_PASSWORD, password2: 'something-else-9' }, 'password2'],
      [{ password: NEW_PASSWORD }, 'password2'],
      [{ password2: NEW_PASSWORD }, 'password'],
    ])('refuses %j with 400 on %s and changes nothing', async (body, field) => {
      const user = await createUser(t.database)
      const mine = await logIn(user)
      const response = await change(mine.headers, { current_password: user.password, ...body })
      expect(response.statusCode).toBe(400)
      expect(response.json().errors[field]).toEqual(expect.any(Array))
      await logIn(user)
      expect(await events()).toEqual([])
    })

    it('refuses a password too similar to the username, as registration does', async () => {
      const user = await createUser(t.database, { username: 'kathmandu' })
      const mine = await logIn(user)
      const response = await change(mine.headers, {
        current_password: user.password,
        password: 'Kathmandu-2026',
        password2: 'Kathmandu-2026',
      })
      expect(response.json().errors.password).toEqual(['The password is too similar to the username.'])
    })

    it('answers 401 without a token', async () => {
      const response = await change({}, { current_password: 'x', password: NEW_PASSWORD, password2: NEW_PASSWORD })
      expect(response.statusCode).toBe(401)
    })
  })

  describe("learners' own changes are audited without secrets", () => {
    it('registration, a profile change and a password reset', async () => {
      const phone = '9841000077'
      await verifyPhoneForRegistration(t, phone)
      const registered = await post(t.app, '/api/users/register/', {
        username: 'gita',
        password: 'Correct-Horse-42',
        password2: 'Correct-Horse-42',
        phone_number: phone,
      })
      expect(registered.statusCode).toBe(201)
      const gita = { username: 'gita', password: 'Correct-Horse-42' }
      const { headers } = await logIn(gita)
      const form = multipart({ full_name: 'Gita Sharma', preferred_language: 'ne' })
      const updated = await t.app.inject({
        method: 'PUT',
        url: '/api/users/profile/',
        headers: { ...headers, ...form.headers },
        payload: form.payload,
      })
      expect(updated.statusCode).toBe(200)

      expect((await post(t.app, '/api/users/otp/send/', { phone_number: phone, purpose: 'reset' })).statusCode).toBe(
        200,
      )
      const code = t.sms.lastCode(phone, 'reset')
      const reset = await post(t.app, '/api/users/password-reset/', {
        phone_number: phone,
        otp: code,
        password: NEW_PASSWORD,
      })
      expect(reset.statusCode).toBe(200)

      const rows = await events()
      expect(rows.map((row) => [row.actor_username, row.action, row.entity_type])).toEqual([
        ['gita', 'create', 'user'],
        ['gita', 'update', 'user'],
        ['gita', 'password_reset', 'user'],
      ])
      expect(JSON.parse(rows[0]!.after_json!)).toEqual({ username: 'gita', phone_number: phone, password: 'changed' })
      expect(JSON.parse(rows[1]!.before_json!)).toEqual({ full_name: '', preferred_language: 'en' })
      expect(JSON.parse(rows[1]!.after_json!)).toEqual({ full_name: 'Gita Sharma', preferred_language: 'ne' })
      expect(JSON.parse(rows[2]!.after_json!)).toEqual({ password: 'changed', logged_out: 'all' })
      const text = JSON.stringify(rows)
      for (const secret of [code, NEW_PASSWORD, 'Correct-Horse-42']) expect(text).not.toContain(secret)
    })

    it('a wrong reset code leaves no event', async () => {
      const user = await createUser(t.database, { phone_number: '9841000078' })
      await post(t.app, '/api/users/otp/send/', { phone_number: user.phone_number, purpose: 'reset' })
      const wrong = t.sms.lastCode(user.phone_number, 'reset') === '000000' ? '111111' : '000000'
      const reset = await post(t.app, '/api/users/password-reset/', {
        phone_number: user.phone_number,
        otp: wrong,
        password: NEW_PASSWORD,
      })
      expect(reset.statusCode).toBe(400)
      expect(await events()).toEqual([])
    })
  })
})

describe.each(dialects)('active logins behind a proxy on %s', (dialect) => {
  const t = useTestApp(dialect, { TRUST_PROXY: '1' })

  it('records the client address the proxy names, as the rate limits do', async () => {
    expect((await logInThroughProxy(t))[0]).toMatchObject({ client_address: '203.0.113.99' })
  })

  // The proxy appends the address it saw to whatever X-Forwarded-For the client sent: with one hop trusted, the
  // client's own entries are not believed.
  it('ignores the addresses a client writes into X-Forwarded-For itself', async () => {
    expect((await logInThroughProxy(t, '198.51.100.1, 203.0.113.99'))[0]).toMatchObject({
      client_address: '203.0.113.99',
    })
  })
})

describe.each(dialects)('active logins behind a proxy named by address on %s', (dialect) => {
  const t = useTestApp(dialect, { TRUST_PROXY: '10.0.0.0/8' })

  it('trusts the named proxy and no hop beyond it', async () => {
    expect((await logInThroughProxy(t, '198.51.100.1, 203.0.113.99'))[0]).toMatchObject({
      client_address: '203.0.113.99',
    })
  })
})
