import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { decodeJwtPart, post } from '../../test/auth-requests'

const send = (t: { app: Parameters<typeof post>[0] }, phone: string, purpose: string, address?: string) =>
  post(t.app, '/api/users/otp/send/', { phone_number: phone, purpose }, address)
const verify = (t: { app: Parameters<typeof post>[0] }, phone: string, purpose: string, otp: string) =>
  post(t.app, '/api/users/otp/verify/', { phone_number: phone, purpose, otp })

const PHONE = '9812345678'
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe.each(dialects)('OTP on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('texts a 6-digit code for registration and answers expires_in and resend_in', async () => {
    const response = await send(t, PHONE, 'register')
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ detail: 'OTP sent to your phone.', expires_in: 300, resend_in: 60 })
    expect(t.sms.sent).toHaveLength(1)
    expect(t.sms.sent[0]).toMatchObject({ to: PHONE, purpose: 'register' })
    expect(t.sms.lastCode(PHONE)).toMatch(/^\d{6}$/)
  })

  it("texts the code in the screen's language, else the account's, in one SMS (70 UTF-16 units in Nepali)", async () => {
    const sent = async (phone: string, purpose: string, language?: string) => {
      const response = await post(t.app, '/api/users/otp/send/', { phone_number: phone, purpose, language })
      expect(response.statusCode).toBe(200)
      return t.sms.sent.at(-1)!.text
    }
    const nepali = await sent(PHONE, 'register', 'ne')
    expect(nepali).toContain(t.sms.lastCode(PHONE))
    expect(nepali).toMatch(/^तपाईंको दर्ता कोड \d{6} हो।/)
    expect(nepali.length).toBeLessThanOrEqual(70)
    const learner = await createUser(t.database, { preferred_language: 'ne' })
    expect(await sent(learner.phone_number, 'login')).toMatch(/^तपाईंको लगइन कोड \d{6} हो।/)
    expect(await sent(learner.phone_number, 'reset', 'en')).toMatch(/^Your password reset code is \d{6}\./)
    const refused = await post(t.app, '/api/users/otp/send/', {
      phone_number: '9800000077',
      purpose: 'register',
      language: 'hi',
    })
    expect(refused.statusCode).toBe(400)
  })

  it('stores the code only as a hash, valid for 5 minutes', async () => {
    await send(t, PHONE, 'register')
    const code = t.sms.lastCode(PHONE)
    const row = await t.db.selectFrom('otp_codes').selectAll().executeTakeFirstOrThrow()
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(code)
    expect(row.expires_at - row.created_at).toBe(5 * 60_000)
    expect(row.created_at).toBe(t.clock.now())
  })

  it('accepts a phone number with surrounding spaces and stores it trimmed', async () => {
    expect((await send(t, `  ${PHONE} `, 'register')).statusCode).toBe(200)
    expect(t.sms.sent[0]!.to).toBe(PHONE)
  })

  it.each([
    ['too short', '98123'],
    ['letters', '98123abcde'],
    ['a country code', '+9779812345678'],
  ])('answers 400 with the 10-digit message to a phone number with %s', async (_label, phone) => {
    const response = await send(t, phone, 'register')
    expect(response.statusCode).toBe(400)
    expect(response.json().errors.phone_number).toEqual(['Please enter a valid 10-digit phone number.'])
    expect(t.sms.sent).toHaveLength(0)
  })

  it('answers 400 to an unknown purpose and to a body of the wrong shape', async () => {
    expect((await send(t, PHONE, 'delete-account')).statusCode).toBe(400)
    expect((await post(t.app, '/api/users/otp/send/', { phone_number: 9812345678, purpose: 'login' })).statusCode).toBe(
      400,
    )
    expect(
      (await post(t.app, '/api/users/otp/verify/', { phone_number: PHONE, purpose: 'login', otp: 123456 })).statusCode,
    ).toBe(400)
  })

  it('answers 404 to a login or reset code for an unregistered phone', async () => {
    expect((await send(t, PHONE, 'login')).statusCode).toBe(404)
    expect((await send(t, PHONE, 'reset')).statusCode).toBe(404)
    expect(t.sms.sent).toHaveLength(0)
  })

  it('answers 409 to a registration code for a registered phone', async () => {
    await createUser(t.database, { phone_number: PHONE })
    const response = await send(t, PHONE, 'register')
    expect(response.statusCode).toBe(409)
    expect(response.json().code).toBe('conflict')
    expect(t.sms.sent).toHaveLength(0)
  })

  it('answers 429 with Retry-After to a second OTP send within 60 s', async () => {
    await send(t, PHONE, 'register')
    t.clock.advance(20_000)
    const again = await send(t, PHONE, 'register')
    expect(again.statusCode).toBe(429)
    expect(again.json().code).toBe('rate_limited')
    expect(again.headers['retry-after']).toBe('40')
    expect(t.sms.sent).toHaveLength(1)
  })

  it('keeps the cooldown per purpose', async () => {
    await createUser(t.database, { phone_number: PHONE })
    expect((await send(t, PHONE, 'login')).statusCode).toBe(200)
    expect((await send(t, PHONE, 'reset')).statusCode).toBe(200)
  })

  it('replaces the previous code when a new one is sent after the cooldown', async () => {
    await send(t, PHONE, 'register')
    const first = t.sms.lastCode(PHONE)
    t.clock.advance(61_000)
    expect((await send(t, PHONE, 'register')).statusCode).toBe(200)
    const second = t.sms.lastCode(PHONE)
    if (first !== second) expect((await verify(t, PHONE, 'register', first)).statusCode).toBe(400)
    expect((await verify(t, PHONE, 'register', second)).statusCode).toBe(200)
    expect(await t.db.selectFrom('otp_codes').selectAll().execute()).toHaveLength(1)
  })

  it('answers 429 to a sixth send to one phone within an hour', async () => {
    await createUser(t.database, { phone_number: PHONE })
    for (let i = 0; i < 5; i++) {
      expect((await send(t, PHONE, i % 2 === 0 ? 'login' : 'reset')).statusCode).toBe(200)
      t.clock.advance(61_000)
    }
    const sixth = await send(t, PHONE, 'login')
    expect(sixth.statusCode).toBe(429)
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0)
    expect(t.sms.sent).toHaveLength(5)
  })

  it('lets exactly one of two simultaneous sends through', async () => {
    const answers = await Promise.all([send(t, PHONE, 'register'), send(t, PHONE, 'register')])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429])
    expect(t.sms.sent).toHaveLength(1)
  })

  it('keeps no valid code when the gateway fails, and charges no cooldown', async () => {
    t.sms.failing = true
    const failed = await send(t, PHONE, 'register')
    expect(failed.statusCode).toBe(503)
    expect(failed.json()).toEqual({
      detail: 'We could not send the SMS right now. Please try again in a few minutes.',
      code: 'sms_failed',
    })
    expect(await t.db.selectFrom('otp_codes').selectAll().execute()).toEqual([])

    t.sms.failing = false
    expect((await send(t, PHONE, 'register')).statusCode).toBe(200)
  })

  it('does not count a failed send against the hourly cap of the phone', async () => {
    t.sms.failing = true
    for (let i = 0; i < 6; i++) expect((await send(t, PHONE, 'register')).statusCode).toBe(503)
    t.sms.failing = false
    expect((await send(t, PHONE, 'register')).statusCode).toBe(200)
  })

  it('answers 400 invalid_otp to a wrong code', async () => {
    await send(t, PHONE, 'register')
    const response = await verify(t, PHONE, 'register', wrongCode(t.sms.lastCode(PHONE)))
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ detail: 'Invalid or expired OTP.', code: 'invalid_otp' })
    const row = await t.db.selectFrom('otp_codes').select('failed_tries').executeTakeFirstOrThrow()
    expect(row.failed_tries).toBe(1)
  })

  it('answers 400 invalid_otp when no code was sent, and to a code of the wrong purpose', async () => {
    expect((await verify(t, PHONE, 'register', '123456')).statusCode).toBe(400)
    await createUser(t.database, { phone_number: PHONE })
    await send(t, PHONE, 'reset')
    expect((await verify(t, PHONE, 'login', t.sms.lastCode(PHONE))).statusCode).toBe(400)
  })

  it('kills the code after 5 wrong tries even if the right one follows', async () => {
    await send(t, PHONE, 'register')
    const code = t.sms.lastCode(PHONE)
    for (let i = 0; i < 5; i++) expect((await verify(t, PHONE, 'register', wrongCode(code))).statusCode).toBe(400)
    const right = await verify(t, PHONE, 'register', code)
    expect(right.statusCode).toBe(400)
    expect(right.json().code).toBe('invalid_otp')
  })

  it('accepts the right code after 4 wrong tries', async () => {
    await send(t, PHONE, 'register')
    const code = t.sms.lastCode(PHONE)
    for (let i = 0; i < 4; i++) await verify(t, PHONE, 'register', wrongCode(code))
    expect((await verify(t, PHONE, 'register', code)).statusCode).toBe(200)
  })

  it('refuses a code after its 5 minutes', async () => {
    await send(t, PHONE, 'register')
    t.clock.advance(5 * 60_000 + 1)
    expect((await verify(t, PHONE, 'register', t.sms.lastCode(PHONE))).statusCode).toBe(400)
  })

  it('signs in with a login code and answers a token pair', async () => {
    const user = await createUser(t.database, { phone_number: PHONE, username: 'Bikash' })
    await send(t, PHONE, 'login')
    const response = await verify(t, PHONE, 'login', t.sms.lastCode(PHONE))
    expect(response.statusCode).toBe(200)
    expect(Object.keys(response.json()).sort()).toEqual(['access', 'refresh'])
    expect(decodeJwtPart(response.json().access, 1)).toMatchObject({
      token_type: 'access',
      user_id: user.id,
      username: 'Bikash',
    })
    expect((await post(t.app, '/api/token/refresh/', { refresh: response.json().refresh })).statusCode).toBe(200)
  })

  // A code alone proves only the SIM: an admin signs in with the password.
  it('refuses a login code for an admin with 403, starting no login, and answers a wrong one as any other', async () => {
    await createUser(t.database, { phone_number: PHONE, is_admin: 1 })
    await send(t, PHONE, 'login')
    const code = t.sms.lastCode(PHONE)
    expect((await verify(t, PHONE, 'login', wrongCode(code))).json().code).toBe('invalid_otp')
    const response = await verify(t, PHONE, 'login', code)
    expect(response.statusCode).toBe(403)
    expect(response.json()).toEqual({
      detail: 'Administrators sign in with their username and password.',
      code: 'permission_denied',
    })
    expect(await t.db.selectFrom('refresh_tokens').selectAll().execute()).toEqual([])
    expect(await t.db.selectFrom('login_sessions').selectAll().execute()).toEqual([])
  })

  it('accepts a login code only once', async () => {
    await createUser(t.database, { phone_number: PHONE })
    await send(t, PHONE, 'login')
    const code = t.sms.lastCode(PHONE)
    expect((await verify(t, PHONE, 'login', code)).statusCode).toBe(200)
    expect((await verify(t, PHONE, 'login', code)).statusCode).toBe(400)
  })

  it('marks the phone verified for registration for 10 minutes and consumes the code', async () => {
    await send(t, PHONE, 'register')
    const code = t.sms.lastCode(PHONE)
    const response = await verify(t, PHONE, 'register', code)
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ verified: true })
    const verification = await t.db.selectFrom('phone_verifications').selectAll().executeTakeFirstOrThrow()
    expect(verification).toEqual({ phone_number: PHONE, verified_until: t.clock.now() + 10 * 60_000 })
    expect((await verify(t, PHONE, 'register', code)).statusCode).toBe(400)
  })

  it('verifies a reset code without consuming it', async () => {
    await createUser(t.database, { phone_number: PHONE })
    await send(t, PHONE, 'reset')
    const code = t.sms.lastCode(PHONE)
    expect((await verify(t, PHONE, 'reset', code)).json()).toEqual({ verified: true })
    expect((await verify(t, PHONE, 'reset', code)).json()).toEqual({ verified: true })
    const row = await t.db.selectFrom('otp_codes').select('consumed_at').executeTakeFirstOrThrow()
    expect(row.consumed_at).toBeNull()
  })

  it('lets one of two simultaneous logins with one code succeed', async () => {
    await createUser(t.database, { phone_number: PHONE })
    await send(t, PHONE, 'login')
    const code = t.sms.lastCode(PHONE)
    const answers = await Promise.all([verify(t, PHONE, 'login', code), verify(t, PHONE, 'login', code)])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400])
  })
})

describe.each(dialects)('OTP limit per client address on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_OTP_PER_IP_HOUR: '2' })

  it('answers 429 once an address has asked for RATE_LIMIT_OTP_PER_IP_HOUR codes in an hour', async () => {
    expect((await send(t, '9800000001', 'register', '198.51.100.1')).statusCode).toBe(200)
    expect((await send(t, '9800000002', 'register', '198.51.100.1')).statusCode).toBe(200)
    const third = await send(t, '9800000003', 'register', '198.51.100.1')
    expect(third.statusCode).toBe(429)
    expect(third.headers['retry-after']).toBeDefined()
    expect((await send(t, '9800000003', 'register', '198.51.100.2')).statusCode).toBe(200)
    // A sliding hour: allowed again once Retry-After has passed.
    t.clock.advance(Number(third.headers['retry-after']) * 1000)
    expect((await send(t, '9800000004', 'register', '198.51.100.1')).statusCode).toBe(200)
  })
})
