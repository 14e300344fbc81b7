import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser, paidAccessUntil } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { login, post, verifyPhoneForRegistration } from '../../test/auth-requests'

const PHONE = '9841000001'
const GOOD_PASSWORD = 'Himal-Chiya-2026'
const registration = (overrides: Record<string, unknown> = {}) => ({
  username: 'Sita.Rai',
  password: GOOD_PASSWORD,
  password2: GOOD_PASSWORD,
  phone_number: PHONE,
  ...overrides,
})

describe.each(dialects)('availability checks on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('says whether a username exists, ignoring case', async () => {
    await createUser(t.database, { username: 'Ramesh' })
    expect((await post(t.app, '/api/users/check-username/', { username: 'rAMESH' })).json()).toEqual({ exists: true })
    expect((await post(t.app, '/api/users/check-username/', { username: 'suresh' })).json()).toEqual({ exists: false })
  })

  it('says whether a phone number is registered', async () => {
    await createUser(t.database, { phone_number: PHONE })
    expect((await post(t.app, '/api/users/check-phone/', { phone_number: PHONE })).json()).toEqual({ exists: true })
    expect((await post(t.app, '/api/users/check-phone/', { phone_number: '9841000002' })).json()).toEqual({
      exists: false,
    })
  })

  it('answers 400 to an invalid phone number or a body of the wrong shape', async () => {
    const phone = await post(t.app, '/api/users/check-phone/', { phone_number: '12345' })
    expect(phone.statusCode).toBe(400)
    expect(phone.json().errors).toEqual({ phone_number: ['Please enter a valid 10-digit phone number.'] })
    expect((await post(t.app, '/api/users/check-username/', { username: ['a'] })).statusCode).toBe(400)
    expect((await post(t.app, '/api/users/check-username/', {})).statusCode).toBe(400)
  })
})

describe.each(dialects)('availability limit per address on %s', (dialect) => {
  const t = useTestApp(dialect, { RATE_LIMIT_ACCOUNT_PER_IP_HOUR: '2' })

  it('answers 429 with Retry-After once an address has made RATE_LIMIT_ACCOUNT_PER_IP_HOUR checks in an hour', async () => {
    for (let i = 0; i < 2; i++)
      expect((await post(t.app, '/api/users/check-username/', { username: `name${i}` })).statusCode).toBe(200)
    const refused = await post(t.app, '/api/users/check-username/', { username: 'name3' })
    expect(refused.statusCode).toBe(429)
    expect(refused.headers['retry-after']).toBeDefined()
    expect((await post(t.app, '/api/users/check-username/', { username: 'name3' }, '203.0.113.9')).statusCode).toBe(200)
  })

  it('limits code checks per address too', async () => {
    const check = { phone_number: PHONE, purpose: 'register', otp: '123456' }
    for (let i = 0; i < 2; i++) expect((await post(t.app, '/api/users/otp/verify/', check)).statusCode).toBe(400)
    expect((await post(t.app, '/api/users/otp/verify/', check)).statusCode).toBe(429)
  })

  it('limits registrations and password resets per address too', async () => {
    for (let i = 0; i < 2; i++) expect((await post(t.app, '/api/users/register/', registration())).statusCode).toBe(400)
    expect((await post(t.app, '/api/users/register/', registration())).statusCode).toBe(429)
    const reset = { phone_number: PHONE, otp: '123456', password: GOOD_PASSWORD }
    for (let i = 0; i < 2; i++) expect((await post(t.app, '/api/users/password-reset/', reset)).statusCode).toBe(400)
    expect((await post(t.app, '/api/users/password-reset/', reset)).statusCode).toBe(429)
  })
})

describe.each(dialects)('registration on %s', (dialect) => {
  const t = useTestApp(dialect)

  it('registers a user whose phone was verified, answers 201 and lets them log in', async () => {
    await verifyPhoneForRegistration(t, PHONE)
    const response = await post(t.app, '/api/users/register/', registration())
    expect(response.statusCode).toBe(201)
    const body = response.json()
    expect(body).toEqual({ id: expect.any(Number), username: 'Sita.Rai', phone_number: PHONE })
    const row = await t.db.selectFrom('users').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow()
    expect(row).toMatchObject({ username_key: 'sita.rai' })
    expect(await paidAccessUntil(t.db, body.id)).toBeNull()
    expect(row.password_hash).toMatch(/^\$argon2id\$/)
    expect(row.password_hash).not.toContain(GOOD_PASSWORD)
    await login(t.app, 'sita.rai', GOOD_PASSWORD)
  })

  it('consumes the verification with a successful registration', async () => {
    await verifyPhoneForRegistration(t, PHONE)
    await post(t.app, '/api/users/register/', registration())
    expect(await t.db.selectFrom('phone_verifications').selectAll().execute()).toEqual([])
  })

  it('answers 400 phone_not_verified to a registration without a verified phone', async () => {
    const response = await post(t.app, '/api/users/register/', registration())
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ detail: 'Phone number has not been verified.', code: 'phone_not_verified' })
    expect(await t.db.selectFrom('users').selectAll().execute()).toEqual([])
  })

  it('answers phone_not_verified once the 10 minutes of the verification have passed', async () => {
    await verifyPhoneForRegistration(t, PHONE)
    t.clock.advance(10 * 60_000 + 1)
    expect((await post(t.app, '/api/users/register/', registration())).json().code).toBe('phone_not_verified')
  })

  it('does not accept a verification of another phone number', async () => {
    await verifyPhoneForRegistration(t, '9841000009')
    expect((await post(t.app, '/api/users/register/', registration())).json().code).toBe('phone_not_verified')
  })

  it('keeps the verification when a registration is refused, so a corrected one succeeds', async () => {
    await verifyPhoneForRegistration(t, PHONE)
    const refused = await post(
      t.app,
      '/api/users/register/',
      registration({ password: 'password123', password2: 'password123' }),
    )
    expect(refused.statusCode).toBe(400)
    expect(refused.json().errors.password).toContain('This password is too common.')
    expect((await post(t.app, '/api/users/register/', registration())).statusCode).toBe(201)
  })

  it.each([
    ['too short', 'ab', 'Username must be 3 to 30 characters long.'],
    ['too long', 'a'.repeat(31), 'Username must be 3 to 30 characters long.'],
    ['a space', 'sita rai', 'Username may contain only letters, digits, ".", "_" and "-".'],
    ['an @', 'sita@rai', 'Username may contain only letters, digits, ".", "_" and "-".'],
    ['Devanagari', 'सीता', 'Username may contain only letters, digits, ".", "_" and "-".'],
  ])('answers 400 to a username that is %s', async (_label, username, message) => {
    const response = await post(t.app, '/api/users/register/', registration({ username }))
    expect(response.statusCode).toBe(400)
    expect(response.json().errors.username).toEqual([message])
  })

  it('accepts usernames of 3 and 30 characters with dots, dashes and underscores', async () => {
    await verifyPhoneForRegistration(t, PHONE)
    expect((await post(t.app, '/api/users/register/', registration({ username: 'a.b' }))).statusCode).toBe(201)
    await verifyPhoneForRegistration(t, '9841000002')
    const long = registration({ username: `${'x_-'.repeat(10)}`, phone_number: '9841000002' })
    expect((await post(t.app, '/api/users/register/', long)).statusCode).toBe(201)
  })

  it('answers 400 to a username taken in another case', async () => {
    await createUser(t.database, { username: 'sita.rai' })
    await verifyPhoneForRegistration(t, PHONE)
    const response = await post(t.app, '/api/users/register/', registration({ username: 'SITA.RAI' }))
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({ username: ['A user with that username already exists.'] })
    // The refused registration left the verification in place.
    expect(await t.db.selectFrom('phone_verifications').selectAll().execute()).toHaveLength(1)
  })

  it('answers 400 to a phone number that is already registered', async () => {
    await createUser(t.database, { phone_number: PHONE })
    const response = await post(t.app, '/api/users/register/', registration())
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({ phone_number: ['Phone number is already registered.'] })
  })

  it.each([
    ['shorter than 8 characters', 'Ab1-xyz', 'This password is too short. It must contain at least 8 characters.'],
    ['all digits', '4829175036', 'This password is entirely numeric.'],
    ['containing the username', 'my-sita.rai-pass', 'The password is too similar to the username.'],
    ['contained in the username', 'SITA.RAI', 'The password is too similar to the username.'],
    ['a common password', 'iloveyou', 'This password is too common.'],
    ['a common password in capitals', 'Sunshine1', 'This password is too common.'],
  ])('answers 400 to a password %s', async (_label, password, message) => {
    await verifyPhoneForRegistration(t, PHONE)
    const response = await post(t.app, '/api/users/register/', registration({ password, password2: password }))
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('validation_error')
    expect(response.json().errors.password).toContain(message)
  })

  it('answers 400 when password2 differs', async () => {
    const response = await post(t.app, '/api/users/register/', registration({ password2: 'something-else-1' }))
    expect(response.statusCode).toBe(400)
    expect(response.json().errors).toEqual({ password2: ['Passwords do not match.'] })
  })

  it('names every bad field at once', async () => {
    const response = await post(t.app, '/api/users/register/', {
      username: 'x',
      password: '123',
      password2: '456',
      phone_number: '98',
    })
    expect(response.statusCode).toBe(400)
    expect(Object.keys(response.json().errors).sort()).toEqual(['password', 'password2', 'phone_number', 'username'])
  })

  it('answers 400 naming the missing fields of an empty body', async () => {
    const response = await post(t.app, '/api/users/register/', {})
    expect(response.statusCode).toBe(400)
    expect(response.json().errors.username).toEqual(['This field is required.'])
    expect(response.json().errors.phone_number).toBeDefined()
  })

  it('answers 400, never 500, when two registrations race for one username', async () => {
    await verifyPhoneForRegistration(t, PHONE)
    await verifyPhoneForRegistration(t, '9841000002')
    const answers = await Promise.all([
      post(t.app, '/api/users/register/', registration({ username: 'racer' })),
      post(t.app, '/api/users/register/', registration({ username: 'RACER', phone_number: '9841000002' })),
    ])
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400])
    const refused = answers.find((a) => a.statusCode === 400)!
    expect(refused.json().errors.username).toEqual(['A user with that username already exists.'])
    expect(await t.db.selectFrom('users').selectAll().execute()).toHaveLength(1)
    // The loser's verification is still there for a corrected attempt.
    expect(await t.db.selectFrom('phone_verifications').selectAll().execute()).toHaveLength(1)
  })
})

describe.each(dialects)('password reset on %s', (dialect) => {
  const t = useTestApp(dialect)
  const NEW_PASSWORD = 'Naya-Sabda-2026'

  async function sendResetCode() {
    expect((await post(t.app, '/api/users/otp/send/', { phone_number: PHONE, purpose: 'reset' })).statusCode).toBe(200)
    return t.sms.lastCode(PHONE, 'reset')
  }

  it('sets the new password, consumes the code and answers 200 with a detail', async () => {
    const user = await createUser(t.database, { phone_number: PHONE })
    const otp = await sendResetCode()
    const response = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ detail: 'Your password has been reset. Please log in.' })
    await login(t.app, user.username, NEW_PASSWORD)
    expect((await post(t.app, '/api/token/', { username: user.username, password: user.password })).statusCode).toBe(
      401,
    )
    const again = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp,
      password: 'Another-Pass-77',
    })
    expect(again.statusCode).toBe(400)
  })

  it('accepts a reset without password2', async () => {
    await createUser(t.database, { phone_number: PHONE })
    const otp = await sendResetCode()
    expect(
      (await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200)
  })

  it('revokes every refresh token of the user', async () => {
    const user = await createUser(t.database, { phone_number: PHONE })
    const phone = await login(t.app, user.username, user.password)
    const laptop = await login(t.app, user.username, user.password)
    const otp = await sendResetCode()
    await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD })
    expect((await post(t.app, '/api/token/refresh/', { refresh: phone.refresh })).statusCode).toBe(401)
    expect((await post(t.app, '/api/token/refresh/', { refresh: laptop.refresh })).statusCode).toBe(401)
  })

  it('works with a code that otp/verify already checked', async () => {
    await createUser(t.database, { phone_number: PHONE })
    const otp = await sendResetCode()
    await post(t.app, '/api/users/otp/verify/', { phone_number: PHONE, purpose: 'reset', otp })
    expect(
      (await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200)
  })

  it('answers 400 invalid_otp to a wrong code, counts the try and keeps the old password', async () => {
    const user = await createUser(t.database, { phone_number: PHONE })
    const otp = await sendResetCode()
    const wrong = otp === '000000' ? '000001' : '000000'
    const response = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp: wrong,
      password: NEW_PASSWORD,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ detail: 'Invalid or expired OTP.', code: 'invalid_otp' })
    expect((await t.db.selectFrom('otp_codes').select('failed_tries').executeTakeFirstOrThrow()).failed_tries).toBe(1)
    await login(t.app, user.username, user.password)
  })

  it('shares the 5 wrong tries between otp/verify and password-reset', async () => {
    await createUser(t.database, { phone_number: PHONE })
    const otp = await sendResetCode()
    const wrong = otp === '000000' ? '000001' : '000000'
    for (let i = 0; i < 3; i++)
      await post(t.app, '/api/users/otp/verify/', { phone_number: PHONE, purpose: 'reset', otp: wrong })
    for (let i = 0; i < 2; i++)
      await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp: wrong, password: NEW_PASSWORD })
    const right = await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD })
    expect(right.statusCode).toBe(400)
    expect(right.json().code).toBe('invalid_otp')
  })

  it('answers 400 to an expired code', async () => {
    await createUser(t.database, { phone_number: PHONE })
    const otp = await sendResetCode()
    t.clock.advance(5 * 60_000 + 1)
    expect(
      (await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(400)
  })

  it('answers 400 invalid_otp for a phone with no account', async () => {
    const response = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp: '123456',
      password: NEW_PASSWORD,
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('invalid_otp')
  })

  it('applies the registration password rules and keeps the code usable', async () => {
    const user = await createUser(t.database, { phone_number: PHONE, username: 'gopal' })
    const otp = await sendResetCode()
    const similar = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp,
      password: 'Gopal-2026',
    })
    expect(similar.statusCode).toBe(400)
    expect(similar.json().errors.password).toEqual(['The password is too similar to the username.'])
    const common = await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: 'qwertyuiop' })
    expect(common.json().errors.password).toEqual(['This password is too common.'])
    const short = await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: 'short' })
    expect(short.json().errors.password).toBeDefined()
    const mismatch = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp,
      password: NEW_PASSWORD,
      password2: 'other-pass-99',
    })
    expect(mismatch.json().errors).toEqual({ password2: ['Passwords do not match.'] })
    expect(
      (await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(200)
    await login(t.app, user.username, NEW_PASSWORD)
  })

  // Otherwise one request with any wrong code would test candidate usernames against "too similar to the username".
  it('checks the code, counting the try, before the password rules', async () => {
    await createUser(t.database, { phone_number: PHONE, username: 'gopal' })
    const otp = await sendResetCode()
    const wrong = otp === '000000' ? '000001' : '000000'
    const response = await post(t.app, '/api/users/password-reset/', {
      phone_number: PHONE,
      otp: wrong,
      password: 'Gopal-2026',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ detail: 'Invalid or expired OTP.', code: 'invalid_otp' })
    expect((await t.db.selectFrom('otp_codes').select('failed_tries').executeTakeFirstOrThrow()).failed_tries).toBe(1)
  })

  it('lifts the lock-out that failed logins caused', async () => {
    const user = await createUser(t.database, { phone_number: PHONE })
    for (let i = 0; i < 10; i++) await post(t.app, '/api/token/', { username: user.username, password: `wrong-${i}` })
    expect((await post(t.app, '/api/token/', { username: user.username, password: user.password })).statusCode).toBe(
      429,
    )
    const otp = await sendResetCode()
    await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp, password: NEW_PASSWORD })
    await login(t.app, user.username, NEW_PASSWORD)
  })

  it('answers 400 to a reset body of the wrong shape', async () => {
    expect(
      (await post(t.app, '/api/users/password-reset/', { phone_number: PHONE, otp: 123456, password: NEW_PASSWORD }))
        .statusCode,
    ).toBe(400)
    expect((await post(t.app, '/api/users/password-reset/', [])).statusCode).toBe(400)
  })
})
