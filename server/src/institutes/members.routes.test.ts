import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { decodeJwtPart } from '../../test/auth-requests'
import { dialects } from '../../test/dialects'
import { createUser, DEFAULT_PASSWORD } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { createInstitutesService } from './institutes.service'

const MAIN = 'main.example.np'
const B = 'pathshala.example.np'

// API.md "Institutes: many on one deployment", accounts and members (docs/decisions/096).
describe.each(dialects)('memberships and members on %s', (dialect) => {
  const t = useTestApp(dialect)

  async function twoInstitutes({ open = true } = {}) {
    const institutes = createInstitutesService({ database: t.database, config: t.config, clock: t.clock })
    const id = await institutes.create({ slug: 'pathshala', name: { en: 'Pathshala', ne: 'पाठशाला' }, hosts: [B] })
    await sql`insert into institute_hosts (host, institute_id) values (${MAIN}, 1)`.execute(t.db)
    if (!open) await t.db.updateTable('institutes').set({ open_registration: 0 }).where('id', '=', id).execute()
    return id
  }
  const send = (host: string, method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: method as 'POST', url, headers: { host, ...headers }, ...(payload && { payload }) })
  const signIn = (host: string, username: string, password = DEFAULT_PASSWORD) =>
    send(host, 'POST', '/api/token/', { username, password })
  const join = (host: string, payload: object) => send(host, 'POST', '/api/institute/join/', payload)
  const bearer = (access: string) => ({ authorization: `Bearer ${access}` })
  async function adminOf(host: string, institute: number) {
    const admin = await createUser(t.database, { is_admin: 1, institute })
    const response = await signIn(host, admin.username)
    expect(response.statusCode).toBe(200)
    return bearer(response.json<{ access: string }>().access)
  }
  const membership = (userId: number, institute: number) =>
    t.db
      .selectFrom('memberships')
      .select(['is_learner', 'is_admin', 'is_marker'])
      .where('user_id', '=', userId)
      .where('institute_id', '=', institute)
      .executeTakeFirst()

  it('refuses a sign-in where the account is no member (403 not_a_member, can_join), after the password', async () => {
    const b = await twoInstitutes()
    const learner = await createUser(t.database)
    expect((await signIn(B, learner.username, 'Wrong-password-1')).json()).toMatchObject({
      code: 'invalid_credentials',
    })
    const refused = await signIn(B, learner.username)
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ detail: expect.any(String), code: 'not_a_member', can_join: true })
    expect(await membership(learner.id, b)).toBeUndefined()
    // Joining with the same credentials: a learner of both, signing in on each.
    const joined = await join(B, { username: learner.username, password: DEFAULT_PASSWORD })
    expect(joined.statusCode).toBe(201)
    expect(decodeJwtPart(joined.json<{ access: string }>().access, 1)).toMatchObject({ institute: 'pathshala' })
    expect(await membership(learner.id, b)).toEqual({ is_learner: 1, is_admin: 0, is_marker: 0 })
    expect((await signIn(B, learner.username)).statusCode).toBe(200)
    expect((await signIn(MAIN, learner.username)).statusCode).toBe(200)
    const mine = await send(MAIN, 'GET', '/api/users/memberships/', undefined, bearer(joined.json().access))
    expect(mine.statusCode).toBe(401) // the token is pathshala's
    const listed = await send(B, 'GET', '/api/users/memberships/', undefined, bearer(joined.json().access))
    expect(listed.json()).toEqual([
      {
        institute: { slug: 'main', name: { en: 'Quiz Practice', ne: 'क्विज अभ्यास' }, hosts: [MAIN], logo: null },
        roles: ['learner'],
      },
      {
        institute: { slug: 'pathshala', name: { en: 'Pathshala', ne: 'पाठशाला' }, hosts: [B], logo: null },
        roles: ['learner'],
      },
    ])
    // A wrong password on join is the login's refusal.
    expect((await join(B, { username: learner.username, password: 'Wrong-password-1' })).statusCode).toBe(401)
  })

  it('says can_join false on a closed institute, where joining is 403 registration_closed', async () => {
    const b = await twoInstitutes({ open: false })
    const learner = await createUser(t.database)
    expect((await signIn(B, learner.username)).json()).toMatchObject({ code: 'not_a_member', can_join: false })
    const joined = await join(B, { username: learner.username, password: DEFAULT_PASSWORD })
    expect(joined.statusCode).toBe(403)
    expect(joined.json()).toMatchObject({ code: 'registration_closed' })
    expect(await membership(learner.id, b)).toBeUndefined()
  })

  it('refuses an OTP login where the account is no member, and joins with the same code', async () => {
    const b = await twoInstitutes()
    const learner = await createUser(t.database)
    expect(
      (await send(B, 'POST', '/api/users/otp/send/', { phone_number: learner.phone_number, purpose: 'login' }))
        .statusCode,
    ).toBe(200)
    const otp = t.sms.lastCode(learner.phone_number, 'login')
    const refused = await send(B, 'POST', '/api/users/otp/verify/', {
      phone_number: learner.phone_number,
      purpose: 'login',
      otp,
    })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'not_a_member', can_join: true })
    const joined = await join(B, { phone_number: learner.phone_number, otp })
    expect(joined.statusCode).toBe(201)
    expect(await membership(learner.id, b)).toMatchObject({ is_learner: 1 })
  })

  it('keeps roles per institute: an admin of main is a plain learner elsewhere, refused the admin routes', async () => {
    const b = await twoInstitutes()
    const admin = await createUser(t.database, { is_admin: 1 })
    const onMain = await signIn(MAIN, admin.username)
    expect(decodeJwtPart(onMain.json().access, 1)).toMatchObject({ is_admin: true })
    expect((await send(MAIN, 'GET', '/api/admin/members/', undefined, bearer(onMain.json().access))).statusCode).toBe(
      200,
    )
    const joined = await join(B, { username: admin.username, password: DEFAULT_PASSWORD })
    expect(decodeJwtPart(joined.json().access, 1)).toMatchObject({ is_admin: false, is_marker: false })
    expect((await send(B, 'GET', '/api/admin/members/', undefined, bearer(joined.json().access))).statusCode).toBe(403)
    // A token that says admin is not believed where the membership does not.
    const forged = await t.tokens.signAccess({
      id: admin.id,
      username: admin.username,
      is_admin: true,
      institute: 'pathshala',
    })
    expect((await send(B, 'GET', '/api/admin/users/', undefined, bearer(forged))).statusCode).toBe(403)
    expect(await membership(admin.id, b)).toEqual({ is_learner: 1, is_admin: 0, is_marker: 0 })
  })

  it('refuses registration codes for phones a closed institute has not invited, and registers those it has', async () => {
    const b = await twoInstitutes({ open: false })
    const headers = await adminOf(B, b)
    const refused = await send(B, 'POST', '/api/users/otp/send/', { phone_number: '9811111111', purpose: 'register' })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toMatchObject({ code: 'registration_closed' })
    expect(t.sms.sent).toHaveLength(0)
    const invited = await send(
      B,
      'POST',
      '/api/admin/members/',
      { phone_numbers: ['9811111111'], role: 'marker' },
      headers,
    )
    expect(invited.json()).toEqual({ added: [], invited: ['9811111111'], already: [] })
    expect(
      (await send(B, 'POST', '/api/users/otp/send/', { phone_number: '9811111111', purpose: 'register' })).statusCode,
    ).toBe(200)
    const otp = t.sms.lastCode('9811111111', 'register')
    expect(
      (await send(B, 'POST', '/api/users/otp/verify/', { phone_number: '9811111111', purpose: 'register', otp }))
        .statusCode,
    ).toBe(200)
    const registered = await send(B, 'POST', '/api/users/register/', {
      username: 'sita',
      phone_number: '9811111111',
      password: DEFAULT_PASSWORD,
      password2: DEFAULT_PASSWORD,
    })
    expect(registered.statusCode).toBe(201)
    const id = registered.json<{ id: number }>().id
    expect(await membership(id, b)).toEqual({ is_learner: 1, is_admin: 0, is_marker: 1 })
    expect(await membership(id, 1)).toBeUndefined()
    expect(await t.db.selectFrom('institute_invitations').selectAll().execute()).toEqual([])
    // Registered on pathshala only: main is another institute to it.
    expect((await signIn(MAIN, 'sita')).json()).toMatchObject({ code: 'not_a_member' })
  })

  it('turns an invitation into a membership when that phone signs in', async () => {
    const b = await twoInstitutes({ open: false })
    const headers = await adminOf(B, b)
    await send(B, 'POST', '/api/admin/members/', { phone_numbers: ['9822222222'], role: 'learner' }, headers)
    const learner = await createUser(t.database, { phone_number: '9822222222' })
    expect(await membership(learner.id, b)).toBeUndefined()
    expect((await signIn(B, learner.username)).statusCode).toBe(200)
    expect(await membership(learner.id, b)).toEqual({ is_learner: 1, is_admin: 0, is_marker: 0 })
  })

  it('adds members by phone all or nothing, and refuses a malformed number at phone_numbers.N', async () => {
    const b = await twoInstitutes()
    const headers = await adminOf(B, b)
    const known = await createUser(t.database)
    const already = await createUser(t.database, { institute: b })
    const bad = await send(
      B,
      'POST',
      '/api/admin/members/',
      { phone_numbers: [known.phone_number, '9833333333', '98-bad'], role: 'learner' },
      headers,
    )
    expect(bad.statusCode).toBe(400)
    expect(bad.json().errors).toHaveProperty(['phone_numbers.2'])
    expect(await membership(known.id, b)).toBeUndefined()
    expect(await t.db.selectFrom('institute_invitations').selectAll().execute()).toEqual([])
    const tooMany = Array.from({ length: 1001 }, (_, i) => `98${String(40_000_000 + i)}`)
    expect(
      (await send(B, 'POST', '/api/admin/members/', { phone_numbers: tooMany, role: 'learner' }, headers)).statusCode,
    ).toBe(400)
    const added = await send(
      B,
      'POST',
      '/api/admin/members/',
      { phone_numbers: [known.phone_number, '9833333333', already.phone_number], role: 'learner' },
      headers,
    )
    expect(added.statusCode).toBe(200)
    expect(added.json()).toEqual({
      added: [known.phone_number],
      invited: ['9833333333'],
      already: [already.phone_number],
    })
    expect(await membership(known.id, b)).toEqual({ is_learner: 1, is_admin: 0, is_marker: 0 })
    const trail = (await send(B, 'GET', '/api/admin/audit/?action=create', undefined, headers)).json()
    expect(trail.results).toContainEqual(
      expect.objectContaining({
        entity_label: 'members: learner',
        after: expect.objectContaining({ invited: ['9833333333'] }),
      }),
    )
    const mainTrail = (
      await send(MAIN, 'GET', '/api/admin/audit/?action=create', undefined, await adminOf(MAIN, 1))
    ).json()
    expect(mainTrail.results).toEqual([])
  })

  it('lists, searches, filters and pages members; changes roles; ends a membership, its login with it', async () => {
    const b = await twoInstitutes()
    const headers = await adminOf(B, b)
    const learners = []
    for (let i = 0; i < 3; i++) learners.push(await createUser(t.database, { institute: b, full_name: `Ram ${i}` }))
    await createUser(t.database) // main's only
    const list = (query: string) => send(B, 'GET', `/api/admin/members/${query}`, undefined, headers)
    expect((await list('')).json().count).toBe(4)
    const page = (await list('?page=2&page_size=2')).json()
    expect(page.count).toBe(4)
    expect(page.results).toHaveLength(2)
    expect((await list('?search=ram')).json().count).toBe(3)
    expect((await list('?role=admin')).json()).toMatchObject({ count: 1, results: [{ roles: ['learner', 'admin'] }] })
    expect((await list('?role=owner')).statusCode).toBe(400)
    expect((await send(MAIN, 'GET', '/api/admin/members/', undefined, headers)).statusCode).toBe(401)

    const [marker, ended] = learners
    const patched = await send(
      B,
      'PATCH',
      `/api/admin/members/${marker!.id}/`,
      { roles: ['learner', 'marker'] },
      headers,
    )
    expect(patched.json()).toMatchObject({ id: marker!.id, roles: ['learner', 'marker'] })
    expect((await send(B, 'PATCH', `/api/admin/members/${marker!.id}/`, { roles: [] }, headers)).statusCode).toBe(400)
    const other = await createUser(t.database)
    expect((await send(B, 'PATCH', `/api/admin/members/${other.id}/`, { roles: ['admin'] }, headers)).statusCode).toBe(
      404,
    )

    const session = (await signIn(B, ended!.username)).json<{ access: string; refresh: string }>()
    expect((await send(B, 'DELETE', `/api/admin/members/${ended!.id}/`, undefined, headers)).statusCode).toBe(204)
    expect((await list('')).json().count).toBe(3)
    expect((await signIn(B, ended!.username)).json()).toMatchObject({ code: 'not_a_member', can_join: false })
    expect((await join(B, { username: ended!.username, password: DEFAULT_PASSWORD })).statusCode).toBe(403)
    expect((await send(B, 'POST', '/api/token/refresh/', { refresh: session.refresh })).statusCode).toBe(401)
    // The account stays.
    expect(await t.db.selectFrom('users').select('id').where('id', '=', ended!.id).executeTakeFirst()).toBeDefined()
    const trail = await send(B, 'GET', '/api/admin/audit/?entity_type=user', undefined, headers)
    expect(trail.json().results.map((event: { action: string }) => event.action)).toEqual(
      expect.arrayContaining(['update', 'delete']),
    )
  })

  it('lists only the institute of the host in the admin users list, with its roles there', async () => {
    const b = await twoInstitutes()
    const headers = await adminOf(B, b)
    await createUser(t.database, { is_admin: 1 })
    const marker = await createUser(t.database, { is_marker: 1, institute: b })
    const users = (await send(B, 'GET', '/api/admin/users/', undefined, headers)).json()
    expect(users.count).toBe(2)
    expect(users.results.find((user: { id: number }) => user.id === marker.id)).toMatchObject({
      is_marker: true,
      is_admin: false,
    })
  })
})
