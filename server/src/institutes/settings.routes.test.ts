import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser, type TestUser } from '../../test/factories'
import { dataUrl, png } from '../../test/fixtures/pictures'
import { useTestApp } from '../../test/test-app'
import { deleteUnusedPictures } from '../pictures/pictures.repository'
import { UNUSED_FOR } from '../pictures/pictures.service'
import { createInstitutesService } from './institutes.service'
import { createInstituteSettingsService } from './settings.service'

const KHALTI_SECRET = 'live_secret_key_0123456789abcdef0123456789abcdef'
const ESEWA_SECRET = 'esewa/secret:&key'

// API.md "Institutes: many on one deployment", "Payments and SMS" (docs/decisions/099): an institute's own settings.
describe.each(dialects)('institute settings on %s', (dialect) => {
  const t = useTestApp(dialect)
  const MAIN = 'main.example.np'
  const OTHER = 'pathshala.example.np'

  async function twoInstitutes() {
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    await createInstitutesService({ database: t.database, config: t.config, clock: t.clock }).create({
      slug: 'pathshala',
      name: { en: 'Pathshala', ne: 'पाठशाला' },
      hosts: [OTHER],
    })
  }
  const bearer = async (user: TestUser, institute = 'main') => ({
    authorization: `Bearer ${await t.tokens.signAccess({
      id: user.id,
      username: user.username,
      is_admin: user.is_admin === 1,
      is_marker: false,
      institute,
    })}`,
  })
  async function call(method: 'GET' | 'PUT', headers: Record<string, string>, payload?: object, host = MAIN) {
    const response = await t.app.inject({
      method,
      url: '/api/admin/institute/settings/',
      headers: { host, ...headers },
      payload,
    })
    return { status: response.statusCode, body: response.json(), raw: response.body }
  }
  const admin = async () => bearer(await createUser(t.database, { is_admin: 1 }))
  const branding = async (host = MAIN) =>
    (await t.app.inject({ method: 'GET', url: '/api/institute/', headers: { host } })).json()

  const defaults = {
    name: { en: 'Quiz Practice', ne: 'क्विज अभ्यास' },
    logo: null,
    colour: '#1d4ed8',
    sms_sender: null,
    open_registration: true,
    khalti: null,
    esewa: null,
  }

  it('answers the settings to an admin, 403 to a learner and 401 without a token', async () => {
    expect(await call('GET', await admin())).toMatchObject({ status: 200, body: defaults })
    const learner = await bearer(await createUser(t.database))
    expect((await call('GET', learner)).status).toBe(403)
    expect((await call('PUT', learner, { colour: '#000000' })).status).toBe(403)
    expect((await call('GET', {})).status).toBe(401)
    expect((await call('GET', await admin())).body).toEqual(defaults)
  })

  it.each([
    [{ colour: 'blue' }, 'colour'],
    [{ colour: '#12345' }, 'colour'],
    [{ name: { en: '  ', ne: 'नाम' } }, 'name.en'],
    [{ name: { en: 'x'.repeat(201) } }, 'name.en'],
    [{ sms_sender: 'ab' }, 'sms_sender'],
    [{ sms_sender: 'Path Shala' }, 'sms_sender'],
    [{ sms_sender: 'ABCDEFGHIJKL' }, 'sms_sender'],
    [{ open_registration: 'yes' }, 'open_registration'],
    [{ khalti: { secret_key: '' } }, 'khalti.secret_key'],
    [{ khalti: { public_key: 'x'.repeat(201) } }, 'khalti.public_key'],
    [{ esewa: { merchant_code: ' ' } }, 'esewa.merchant_code'],
    [{ esewa: { secret_key: 42 } }, 'esewa.secret_key'],
    [{ logo: { picture: 'data:image/png;base64,bm90IGEgcGljdHVyZQ==' } }, 'logo.picture'],
    [{ logo: { picture: 'https://example.com/logo.png' } }, 'logo.picture'],
    [{ logo: 'logo.png' }, 'logo'],
  ])('refuses %j with 400 at %s and changes nothing', async (body, path) => {
    const headers = await admin()
    // Each refused body carries a good change too: nothing of it may be kept.
    const refused = await call('PUT', headers, { open_registration: false, ...body })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'validation_error' })
    expect(Object.keys(refused.body.errors as object)).toContain(path)
    expect((await call('GET', headers)).body).toEqual(defaults)
    expect(await t.db.selectFrom('institute_payment_keys').selectAll().execute()).toEqual([])
  })

  it('keeps what a PUT leaves out, removes what it sends as null, and never reads a secret back', async () => {
    const headers = await admin()
    const saved = await call('PUT', headers, {
      name: { en: 'Sagarmatha Academy', ne: 'सगरमाथा एकेडेमी' },
      colour: '#C81E3C',
      sms_sender: 'Sagarmatha',
      open_registration: false,
      khalti: { public_key: 'live_public_key_1', secret_key: KHALTI_SECRET },
      esewa: { merchant_code: 'SAGARMATHA', secret_key: ESEWA_SECRET },
    })
    expect(saved.status).toBe(200)
    const full = {
      name: { en: 'Sagarmatha Academy', ne: 'सगरमाथा एकेडेमी' },
      logo: null,
      colour: '#c81e3c',
      sms_sender: 'Sagarmatha',
      open_registration: false,
      khalti: { public_key: 'live_public_key_1', secret_key: 'set' },
      esewa: { merchant_code: 'SAGARMATHA', secret_key: 'set' },
    }
    expect(saved.body).toEqual(full)
    expect(saved.raw).not.toContain(KHALTI_SECRET)
    // Sealed at rest: neither secret is in the database as written.
    const stored = JSON.stringify(await t.db.selectFrom('institute_payment_keys').selectAll().execute())
    expect(stored).not.toContain(KHALTI_SECRET)
    expect(stored).not.toContain(ESEWA_SECRET)

    // Left out keeps; "set" sent back (a form's round trip) keeps; a field inside a provider left out keeps.
    expect((await call('PUT', headers, {})).body).toEqual(full)
    expect(
      (await call('PUT', headers, { khalti: { public_key: 'live_public_key_2', secret_key: 'set' } })).body,
    ).toEqual({
      ...full,
      khalti: { public_key: 'live_public_key_2', secret_key: 'set' },
    })
    // null removes: the sender, one secret, a whole provider.
    const removed = await call('PUT', headers, { sms_sender: null, khalti: { secret_key: null }, esewa: null })
    expect(removed.body).toEqual({
      ...full,
      sms_sender: null,
      khalti: { public_key: 'live_public_key_2', secret_key: null },
      esewa: null,
    })
    expect((await call('GET', headers)).body).toEqual(removed.body)
    expect(await t.db.selectFrom('institute_payment_keys').select('provider').execute()).toEqual([
      { provider: 'khalti' },
    ])
  })

  it('refuses the providers’ published test keys on a live server, and takes them on a sandbox', async () => {
    const settings = (sandbox: boolean) =>
      createInstituteSettingsService({
        database: t.database,
        config: { ...t.config, env: 'production', payments: { ...t.config.payments, sandbox } },
        clock: t.clock,
        pictures: {
          encode: async () => 'not_a_picture',
          alreadyStored: async () => new Map(),
          saveEncoded: async () => {},
        },
        institutes: { forget: () => {} },
      })
    const actor = { id: null, username: 'test', address: null }
    const testKeys = {
      khalti: { secret_key: 'test_secret_key_0123' },
      esewa: { merchant_code: 'EPAYTEST', secret_key: '8gBm/:&EnhH.1/q' },
    }
    await expect(settings(false).update(1, testKeys, actor)).rejects.toMatchObject({
      status: 400,
      errors: {
        'khalti.secret_key': [expect.any(String)],
        'esewa.merchant_code': [expect.any(String)],
        'esewa.secret_key': [expect.any(String)],
      },
    })
    expect(await t.db.selectFrom('institute_payment_keys').selectAll().execute()).toEqual([])
    expect(await settings(true).update(1, testKeys, actor)).toMatchObject({ khalti: { secret_key: 'set' } })
  })

  it('records each change in the audit trail without any secret', async () => {
    const headers = await admin()
    await call('PUT', headers, { colour: '#00aa00', khalti: { secret_key: KHALTI_SECRET } })
    await call('PUT', headers, { khalti: { secret_key: 'another_secret_value' } })
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit/?entity_type=institute',
      headers: { host: MAIN, ...headers },
    })
    expect(audit.statusCode).toBe(200)
    expect(audit.body).not.toContain(KHALTI_SECRET)
    expect(audit.body).not.toContain('another_secret_value')
    const events = audit.json().results as { action: string; before: object; after: object }[]
    expect(events).toHaveLength(2)
    expect(events[1]).toMatchObject({
      action: 'update',
      before: { colour: '#1d4ed8', khalti: null },
      after: { colour: '#00aa00', khalti: { public_id: null, secret_key: 'changed' } },
    })
    expect(events[0]).toMatchObject({ after: { khalti: { secret_key: 'changed' } } })
  })

  it('takes a logo as a picture, shows it in the branding, keeps it from the sweep, and removes it with null', async () => {
    const headers = await admin()
    const saved = await call('PUT', headers, { logo: { picture: dataUrl(await png(120, 60)) } })
    expect(saved.status).toBe(200)
    expect(saved.body.logo).toEqual({
      url: expect.stringMatching(/^\/api\/pictures\/[0-9a-f]{64}\.webp$/),
      width: 120,
      height: 60,
    })
    expect((await branding()).logo).toEqual(saved.body.logo)
    const picture = await t.app.inject({ method: 'GET', url: saved.body.logo.url, headers: { host: MAIN } })
    expect(picture.statusCode).toBe(200)
    // A logo is a use of its picture: the sweep of unused pictures leaves it.
    const later = t.clock.now() + 60 * 86_400_000
    expect(await deleteUnusedPictures(t.db, [saved.body.logo.url.slice(14, -5)], later - UNUSED_FOR, later)).toEqual([])

    const removed = await call('PUT', headers, { logo: null })
    expect(removed.status, removed.raw).toBe(200)
    expect(removed.body.logo).toBeNull()
    expect((await branding()).logo).toBeNull()
  })

  it('shows a change in GET /api/institute/ at once, on its own institute only', async () => {
    await twoInstitutes()
    const headers = await admin()
    await call('PUT', headers, { name: { en: 'Main Academy', ne: 'मुख्य एकेडेमी' }, colour: '#112233' })
    expect(await branding(MAIN)).toMatchObject({ name: { en: 'Main Academy', ne: 'मुख्य एकेडेमी' }, colour: '#112233' })
    expect(await branding(OTHER)).toMatchObject({ name: { en: 'Pathshala', ne: 'पाठशाला' }, colour: '#1f6feb' })

    const theirAdmin = await bearer(await createUser(t.database, { is_admin: 1, institute: 2 }), 'pathshala')
    const theirs = await call('PUT', theirAdmin, { open_registration: false, sms_sender: 'Pathshala' }, OTHER)
    expect(theirs.body).toMatchObject({ name: { en: 'Pathshala' }, open_registration: false, sms_sender: 'Pathshala' })
    expect(await branding(OTHER)).toMatchObject({ open_registration: false })
    expect(await branding(MAIN)).toMatchObject({ name: { en: 'Main Academy' }, open_registration: true })
    // Main's admin token is not for the other institute's host.
    expect((await call('GET', headers, undefined, OTHER)).status).toBe(401)
  })
})
