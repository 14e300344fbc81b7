import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { createInstitutesService } from './institutes.service'

// API.md "Institutes": "OTP SMS name the institute" (docs/decisions/099): the name in the learner's language, the
// institute's own sender id where it has one; the limits per phone stay the deployment's.
describe.each(dialects)('text messages of institutes on %s', (dialect) => {
  const t = useTestApp(dialect, { SMS_SENDER_ID: 'QuizNP' })
  const MAIN = 'main.example.np'
  const THEIRS = 'pathshala.example.np'

  const sendCode = (host: string, phone: string, purpose: string, language?: 'en' | 'ne') =>
    t.app.inject({
      method: 'POST',
      url: '/api/users/otp/send/',
      headers: { host },
      payload: { phone_number: phone, purpose, language },
    })
  async function twoInstitutes() {
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    const institutes = createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
    const id = await institutes.create({
      slug: 'pathshala',
      name: { en: 'Pathshala Academy', ne: 'पाठशाला' },
      hosts: [THEIRS],
    })
    await t.db.updateTable('institutes').set({ sms_sender: 'Pathshala' }).where('id', '=', id).execute()
  }

  it('names the institute of the host in the learner’s language, from its own sender id', async () => {
    await twoInstitutes()
    expect((await sendCode(THEIRS, '9811111111', 'register', 'en')).statusCode).toBe(200)
    expect(t.sms.sent.at(-1)).toMatchObject({
      sender: 'Pathshala',
      text: expect.stringMatching(/^Pathshala Academy: Your registration code is \d{6}\./),
    })
    expect((await sendCode(THEIRS, '9822222222', 'register', 'ne')).statusCode).toBe(200)
    const nepali = t.sms.sent.at(-1)!
    expect(nepali.text).toMatch(/^पाठशाला: दर्ता कोड \d{6}।/)
    expect(nepali.text.length).toBeLessThanOrEqual(70)
    // Main has no sender id of its own: the deployment's is used.
    expect((await sendCode(MAIN, '9833333333', 'register', 'en')).statusCode).toBe(200)
    expect(t.sms.sent.at(-1)!.sender).toBeUndefined()
    expect(t.sms.sent.at(-1)!.text).toMatch(/^Quiz Practice: Your registration code/)
  })

  it('cuts a long name so that a Nepali code stays one SMS', async () => {
    await twoInstitutes()
    await t.db
      .updateTable('institutes')
      .set({ name_ne: 'श्री पाठशाला शैक्षिक प्रतिष्ठान' })
      .where('slug', '=', 'pathshala')
      .execute()
    const learner = await createUser(t.database)
    for (const purpose of ['login', 'reset'] as const) {
      t.clock.advance(61_000)
      const sent = await sendCode(THEIRS, learner.phone_number, purpose, 'ne')
      expect(sent.statusCode).toBe(200)
      const { text } = t.sms.sent.at(-1)!
      expect(text.length).toBeLessThanOrEqual(70)
      expect(text).toMatch(/^श्री पाठशाला[^:]*…: /)
      expect(text).toContain(t.sms.lastCode(learner.phone_number, purpose))
    }
  })

  it('keeps the resend wait per phone across institutes', async () => {
    await twoInstitutes()
    expect((await sendCode(THEIRS, '9844444444', 'register')).statusCode).toBe(200)
    const again = await sendCode(MAIN, '9844444444', 'register')
    expect(again.statusCode).toBe(429)
  })

  it('leaves a lone institute’s messages as they were, with its own sender id once set', async () => {
    expect((await sendCode('localhost', '9855555555', 'register', 'en')).statusCode).toBe(200)
    expect(t.sms.sent.at(-1)!.text).toMatch(/^Your registration code is \d{6}\./)
    expect(t.sms.sent.at(-1)!.sender).toBeUndefined()

    const admin = await createUser(t.database, { is_admin: 1 })
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/institute/settings/',
      headers: { host: 'localhost', ...(await bearerFor(t.tokens, admin)) },
      payload: { sms_sender: 'MainAcad' },
    })
    expect(saved.statusCode).toBe(200)
    expect((await sendCode('localhost', '9866666666', 'register', 'en')).statusCode).toBe(200)
    expect(t.sms.sent.at(-1)).toMatchObject({ sender: 'MainAcad', text: expect.stringMatching(/^Your registration/) })
  })
})
