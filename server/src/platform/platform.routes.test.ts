import sharp from 'sharp'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser, DEFAULT_PASSWORD } from '../../test/factories'
import { openQuiz } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { inRequestScope } from '../db/request-scope'
import { createInstitutesService } from '../institutes/institutes.service'
import { nepalMonthStart } from './nepal-month'

const PLATFORM = 'quiz.example.np'
const PATHSHALA = 'pathshala.example.np'
const MAIN = 'main.example.np'

// API.md "Institutes: many on one deployment", "Platform admins" (docs/decisions/097).
describe.each(dialects)('the platform on %s', (dialect) => {
  const t = useTestApp(dialect, { BASE_DOMAIN: PLATFORM })
  const institutes = () => createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
  const call = (host: string, method: string, url: string, access?: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { host, ...(access && { authorization: `Bearer ${access}` }) },
      ...(payload !== undefined && { payload: payload as object }),
    })
  const signIn = (host: string, username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { host },
      payload: { username, password: DEFAULT_PASSWORD },
    })
  const accessOf = async (host: string, username: string) => {
    const response = await signIn(host, username)
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ access: string; refresh: string }>()
  }
  const platformAdmin = () => createUser(t.database, { is_platform_admin: 1 })
  /** A second institute, and main's own host: the deployment then holds every query to one institute. */
  const twoInstitutes = async () => {
    const id = await institutes().create({ slug: 'pathshala', name: { en: 'Pathshala' }, hosts: [PATHSHALA] })
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    return id
  }

  it('answers a platform admin on any host while there is one institute, and nobody else', async () => {
    const admin = await platformAdmin()
    const { access } = await accessOf('localhost:3000', admin.username)
    const list = await call('anything.example.com', 'GET', '/api/platform/institutes/', access)
    expect(list.statusCode).toBe(200)
    expect(list.json()).toMatchObject({ count: 1, results: [{ id: 1, slug: 'main', status: 'active' }] })
    // Not a member of the institute: the token is the platform's alone, no token of the institute's routes.
    expect((await call('localhost', 'GET', '/api/results/progress/', access)).statusCode).toBe(401)

    const learner = await createUser(t.database)
    const learnerAccess = (await accessOf('localhost', learner.username)).access
    const refused = await call('localhost', 'GET', '/api/platform/institutes/', learnerAccess)
    expect(refused.statusCode).toBe(403)
    const institutesAdmin = await createUser(t.database, { is_admin: 1 })
    const adminAccess = (await accessOf('localhost', institutesAdmin.username)).access
    expect((await call('localhost', 'GET', '/api/platform/audit/', adminAccess)).statusCode).toBe(403)
    expect((await call('localhost', 'POST', '/api/platform/institutes/1/act/', adminAccess)).statusCode).toBe(403)
    expect((await call('localhost', 'GET', '/api/platform/institutes/')).statusCode).toBe(401)
    // The learner's sign-in on the one host is as before institutes.
    expect((await call('localhost', 'GET', '/api/results/progress/', learnerAccess)).statusCode).toBe(200)
  })

  it("keeps the platform's address to platform admins with several institutes, and is not on an institute's", async () => {
    await twoInstitutes()
    const admin = await platformAdmin()
    const learner = await createUser(t.database)

    const refused = await signIn(PLATFORM, learner.username)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'not_a_member', can_join: false })

    const tokens = await accessOf(PLATFORM, admin.username)
    const list = await call(PLATFORM, 'GET', '/api/platform/institutes/?page_size=1&page=2', tokens.access)
    expect(list.statusCode).toBe(200)
    expect(list.json()).toMatchObject({ count: 2, results: [{ slug: 'pathshala', hosts: [PATHSHALA] }] })
    // Nothing of an institute's answers on the platform's address.
    expect((await call(PLATFORM, 'GET', '/api/quizzes/', tokens.access)).statusCode).toBe(404)
    // The platform's routes are not there on an institute's host, with a token or without.
    for (const host of [PATHSHALA, MAIN]) {
      expect((await call(host, 'GET', '/api/platform/institutes/', tokens.access)).statusCode).toBe(404)
      expect((await call(host, 'GET', '/api/platform/audit/')).statusCode).toBe(404)
      // The platform's token is no institute's.
      expect((await call(host, 'GET', '/api/results/progress/', tokens.access)).statusCode).toBe(401)
    }
    // An institute's token on the platform's address is no token there.
    const learnerTokens = await accessOf(MAIN, learner.username)
    expect((await call(PLATFORM, 'GET', '/api/platform/institutes/', learnerTokens.access)).statusCode).toBe(401)

    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      headers: { host: PLATFORM },
      payload: { refresh: tokens.refresh },
    })
    expect(refreshed.statusCode).toBe(200)
    const again = refreshed.json<{ access: string }>().access
    expect((await call(PLATFORM, 'GET', '/api/platform/institutes/', again)).statusCode).toBe(200)
  })

  it('refuses a non-platform-admin token on the platform address and a demoted platform admin', async () => {
    await twoInstitutes()
    const admin = await platformAdmin()
    const { access } = await accessOf(PLATFORM, admin.username)
    await t.db.updateTable('users').set({ is_platform_admin: 0 }).where('id', '=', admin.id).execute()
    expect((await call(PLATFORM, 'GET', '/api/platform/institutes/', access)).statusCode).toBe(403)
  })

  it('makes, reads and changes institutes; a taken host is 409 host_taken', async () => {
    const admin = await platformAdmin()
    const { access } = await accessOf(PLATFORM, admin.username)
    const made = await call(PLATFORM, 'POST', '/api/platform/institutes/', access, {
      slug: 'vidya',
      name: { en: 'Vidya', ne: 'विद्या' },
      hosts: ['Vidya.Example.NP'],
      colour: '#AA0000',
      open_registration: false,
    })
    expect(made.statusCode, made.body).toBe(201)
    const institute = made.json<{ id: number }>()
    expect(institute).toEqual({
      id: institute.id,
      slug: 'vidya',
      name: { en: 'Vidya', ne: 'विद्या' },
      hosts: ['vidya.example.np'],
      logo: null,
      colour: '#aa0000',
      sms_sender: null,
      open_registration: false,
      status: 'active',
      usage: { learners: 0, admins: 0, attempts_this_month: 0, file_bytes: 0 },
    })
    // The new institute answers on its host at once.
    expect((await call('vidya.example.np', 'GET', '/api/institute/')).json()).toMatchObject({ slug: 'vidya' })

    const taken = await call(PLATFORM, 'POST', '/api/platform/institutes/', access, {
      slug: 'other',
      name: { en: 'Other' },
      hosts: ['vidya.example.np'],
    })
    expect(taken.statusCode).toBe(409)
    expect(taken.json()).toMatchObject({ code: 'host_taken' })
    const second = await call(PLATFORM, 'POST', '/api/platform/institutes/', access, {
      slug: 'second',
      name: { en: 'Second' },
      hosts: ['second.example.np'],
    })
    const secondId = second.json<{ id: number }>().id
    const stolen = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${secondId}/`, access, {
      hosts: ['VIDYA.example.np'],
    })
    expect(stolen.statusCode).toBe(409)
    expect(stolen.json()).toMatchObject({ code: 'host_taken' })
    // Another institute's own address under BASE_DOMAIN: a kept host would take it from it (it is looked up first).
    const itsAddress = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${secondId}/`, access, {
      hosts: [`vidya.${PLATFORM}`],
    })
    expect(itsAddress.statusCode).toBe(409)
    expect(itsAddress.json()).toMatchObject({ code: 'host_taken' })
    // A new institute whose own address another keeps.
    const keeps = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${secondId}/`, access, {
      hosts: ['second.example.np', `fourth.${PLATFORM}`],
    })
    expect(keeps.statusCode).toBe(200)
    const addressKept = await call(PLATFORM, 'POST', '/api/platform/institutes/', access, {
      slug: 'fourth',
      name: { en: 'Fourth' },
      hosts: [],
    })
    expect(addressKept.statusCode).toBe(409)
    expect(addressKept.json()).toMatchObject({ code: 'host_taken' })
    const platformHost = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${secondId}/`, access, {
      hosts: [PLATFORM],
    })
    expect(platformHost.statusCode).toBe(409)
    const badColour = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${secondId}/`, access, {
      colour: 'red',
    })
    expect(badColour.statusCode).toBe(400)
    expect((await call(PLATFORM, 'GET', '/api/platform/institutes/999/', access)).statusCode).toBe(404)

    const changed = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${institute.id}/`, access, {
      name: { en: 'Vidya Academy', ne: 'विद्या एकेडेमी' },
      hosts: ['vidya.edu.np', 'www.vidya.edu.np'],
      open_registration: true,
    })
    expect(changed.statusCode, changed.body).toBe(200)
    expect(changed.json()).toMatchObject({
      name: { en: 'Vidya Academy', ne: 'विद्या एकेडेमी' },
      hosts: ['vidya.edu.np', 'www.vidya.edu.np'],
      open_registration: true,
      colour: '#aa0000',
    })
    // The old host is no one's at once, the new one the institute's.
    expect((await call('vidya.example.np', 'GET', '/api/institute/')).statusCode).toBe(404)
    expect((await call('www.vidya.edu.np', 'GET', '/api/institute/')).json()).toMatchObject({ slug: 'vidya' })

    const audit = await call(PLATFORM, 'GET', '/api/platform/audit/', access)
    expect(audit.statusCode).toBe(200)
    const events = audit.json<{ count: number; results: { action: string; entity_label: string }[] }>()
    expect(events.results.map((event) => [event.action, event.entity_label])).toEqual([
      ['update', 'vidya'],
      ['update', 'second'],
      ['create', 'second'],
      ['create', 'vidya'],
    ])
    // None of it is in an institute's trail.
    const inMain = await t.db.selectFrom('audit_events').select('action').execute()
    expect(inMain).toEqual([])
  })

  it('takes a logo as a picture, and counts its bytes', async () => {
    const admin = await platformAdmin()
    const { access } = await accessOf(PLATFORM, admin.username)
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#1f6feb' } })
      .png()
      .toBuffer()
    const logo = { picture: `data:image/png;base64,${png.toString('base64')}` }
    const changed = await call(PLATFORM, 'PATCH', '/api/platform/institutes/1/', access, { logo })
    expect(changed.statusCode, changed.body).toBe(200)
    const body = changed.json<{ logo: { url: string; width: number }; usage: { file_bytes: number } }>()
    expect(body.logo).toMatchObject({ url: expect.stringMatching(/^\/api\/pictures\/[0-9a-f]{64}\.webp$/), width: 40 })
    const stored = await t.db.selectFrom('pictures').select('data_key').executeTakeFirstOrThrow()
    expect(body.usage.file_bytes).toBe((await t.files.get(stored.data_key!))!.length)
    expect((await call('localhost', 'GET', '/api/institute/')).json()).toMatchObject({ logo: body.logo })
    const notAPicture = await call(PLATFORM, 'PATCH', '/api/platform/institutes/1/', access, {
      logo: { picture: 'data:image/png;base64,AAAA' },
    })
    expect(notAPicture.statusCode).toBe(400)
    const removed = await call(PLATFORM, 'PATCH', '/api/platform/institutes/1/', access, { logo: null })
    expect(removed.json()).toMatchObject({ logo: null, usage: { file_bytes: 0 } })
  })

  it('counts each institute its own members and attempts of this Nepal month', async () => {
    const second = await twoInstitutes()
    const admin = await platformAdmin()
    const now = t.clock.now()
    const users = await Promise.all([1, 2, 3, 4].map(() => createUser(t.database, { institute: null })))
    const member = (user: { id: number }, institute: number, role: 'learner' | 'admin') =>
      t.db
        .insertInto('memberships')
        .values({
          user_id: user.id,
          institute_id: institute,
          is_learner: role === 'learner' ? 1 : 0,
          is_admin: role === 'admin' ? 1 : 0,
          created_at: now,
        })
        .execute()
    await member(users[0]!, 1, 'learner')
    await member(users[1]!, 1, 'learner')
    await member(users[2]!, 1, 'admin')
    await member(users[0]!, second, 'learner')
    await member(users[3]!, second, 'admin')
    const attempt = (quizId: number, userId: number, startedAt: number, attemptNumber: number) =>
      t.db
        .insertInto('attempts')
        .values({
          user_id: userId,
          quiz_id: quizId,
          attempt_number: attemptNumber,
          status: 'in_progress',
          started_at: startedAt,
          deadline: startedAt + 600_000,
          revision_ids: '[]',
          finished_at: null,
          score_hundredths: null,
          correct: null,
          incorrect: null,
          unanswered: null,
        })
        .execute()
    const monthStart = nepalMonthStart(now)
    await inRequestScope({ requestId: 'seed-main', institute: 1 }, async () => {
      const { quiz } = await openQuiz(t)
      await attempt(quiz.id, users[0]!.id, now, 1)
      await attempt(quiz.id, users[1]!.id, monthStart, 1)
      await attempt(quiz.id, users[2]!.id, monthStart - 1, 1) // last Nepal month
    })
    await inRequestScope({ requestId: 'seed-second', institute: second }, async () => {
      const { quiz } = await openQuiz(t)
      await attempt(quiz.id, users[0]!.id, now, 1)
    })

    const { access } = await accessOf(PLATFORM, admin.username)
    const list = await call(PLATFORM, 'GET', '/api/platform/institutes/', access)
    const usage = list.json<{ results: { slug: string; usage: unknown }[] }>().results
    expect(usage.map((institute) => [institute.slug, institute.usage])).toEqual([
      ['main', { learners: 2, admins: 1, attempts_this_month: 2, file_bytes: 0 }],
      ['pathshala', { learners: 1, admins: 1, attempts_this_month: 1, file_bytes: 0 }],
    ])
  })

  it('suspends an institute at once for everyone but an act-as token, and lifts it again', async () => {
    const second = await twoInstitutes()
    const admin = await platformAdmin()
    const { access } = await accessOf(PLATFORM, admin.username)
    expect((await call(PATHSHALA, 'GET', '/api/institute/')).statusCode).toBe(200)
    const suspended = await call(PLATFORM, 'PATCH', `/api/platform/institutes/${second}/`, access, {
      status: 'suspended',
    })
    expect(suspended.json()).toMatchObject({ status: 'suspended' })
    // The change drops this process's host table; another process reads it again within 1 s (FRESH_MS).
    const refused = await call(PATHSHALA, 'GET', '/api/institute/')
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'institute_suspended' })
    const acting = (await call(PLATFORM, 'POST', `/api/platform/institutes/${second}/act/`, access)).json<{
      access: string
    }>().access
    expect((await call(PATHSHALA, 'GET', '/api/admin/audit/', acting)).statusCode).toBe(200)
    // Main is not suspended with it.
    expect((await call(MAIN, 'GET', '/api/institute/')).statusCode).toBe(200)

    await call(PLATFORM, 'PATCH', `/api/platform/institutes/${second}/`, access, { status: 'active' })
    expect((await call(PATHSHALA, 'GET', '/api/institute/')).statusCode).toBe(200)
  })

  it('keeps the platform open while the one institute is suspended', async () => {
    const admin = await platformAdmin()
    const { access } = await accessOf('localhost', admin.username)
    await call('localhost', 'PATCH', '/api/platform/institutes/1/', access, { status: 'suspended' })
    expect((await call('localhost', 'GET', '/api/institute/')).json()).toMatchObject({ code: 'institute_suspended' })
    expect((await accessOf('localhost', admin.username)).access).toBeTruthy()
    const lifted = await call('localhost', 'PATCH', '/api/platform/institutes/1/', access, { status: 'active' })
    expect(lifted.json()).toMatchObject({ status: 'active' })
    expect((await call('localhost', 'GET', '/api/institute/')).statusCode).toBe(200)
  })

  it('acts as an admin of one institute for 15 minutes, in both trails', async () => {
    const second = await twoInstitutes()
    const admin = await platformAdmin()
    const { access } = await accessOf(PLATFORM, admin.username)
    const act = await call(PLATFORM, 'POST', `/api/platform/institutes/${second}/act/`, access)
    expect(act.statusCode).toBe(200)
    const acting = act.json<{ access: string; refresh?: string }>()
    expect(acting.refresh).toBeUndefined()

    // The institute's admin routes, on its host alone; not the platform's routes, not another institute's.
    const trail = await call(PATHSHALA, 'GET', '/api/admin/audit/', acting.access)
    expect(trail.statusCode).toBe(200)
    expect(trail.json()).toMatchObject({
      count: 1,
      results: [{ action: 'act_as', entity_type: 'institute', entity_id: second, actor: { id: admin.id } }],
    })
    expect((await call(MAIN, 'GET', '/api/admin/audit/', acting.access)).statusCode).toBe(401)
    expect((await call(PLATFORM, 'GET', '/api/platform/institutes/', acting.access)).statusCode).toBe(401)
    // Main's trail has none of it.
    const mainAdmin = await createUser(t.database, { is_admin: 1 })
    const mainAccess = (await accessOf(MAIN, mainAdmin.username)).access
    expect((await call(MAIN, 'GET', '/api/admin/audit/', mainAccess)).json()).toMatchObject({ count: 0 })

    const platformTrail = await call(PLATFORM, 'GET', '/api/platform/audit/?action=act_as', access)
    expect(platformTrail.json()).toMatchObject({
      count: 1,
      results: [{ action: 'act_as', entity_id: second, entity_label: 'pathshala', actor: { id: admin.id } }],
    })

    t.clock.advance(14 * 60_000)
    expect((await call(PATHSHALA, 'GET', '/api/admin/audit/', acting.access)).statusCode).toBe(200)
    t.clock.advance(60_000)
    expect((await call(PATHSHALA, 'GET', '/api/admin/audit/', acting.access)).statusCode).toBe(401)
  })

  it('takes an act-as token no more once its user is no platform admin', async () => {
    const second = await twoInstitutes()
    const admin = await platformAdmin()
    const { access } = await accessOf(PLATFORM, admin.username)
    const acting = (await call(PLATFORM, 'POST', `/api/platform/institutes/${second}/act/`, access)).json<{
      access: string
    }>().access
    await t.db.updateTable('users').set({ is_platform_admin: 0 }).where('id', '=', admin.id).execute()
    expect((await call(PATHSHALA, 'GET', '/api/admin/audit/', acting)).statusCode).toBe(403)
  })
})
