import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser, paidAccessUntil } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { verifyPassword } from '../accounts/passwords'
import { PAID_ACCESS_NO_END } from '../db/schema'
import { createLearners, createOrPromoteAdmin, setPaidAccess, UserAdminError } from './user-admin.service'

const ADMIN_PASSWORD = 'Sagarmatha-8848'

describe.each(dialects)('user administration on %s', (dialect) => {
  const t = useTestApp(dialect)
  const rolesIn = (userId: number) =>
    t.db
      .selectFrom('memberships')
      .selectAll()
      .where('user_id', '=', userId)
      .where('institute_id', '=', 1)
      .executeTakeFirst()

  describe('createOrPromoteAdmin', () => {
    it('creates an admin who can log in', async () => {
      const result = await createOrPromoteAdmin(t.database, t.clock, {
        username: 'Principal',
        password: ADMIN_PASSWORD,
        phone: '9800000100',
      })
      expect(result).toMatchObject({ action: 'created', username: 'Principal' })
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', result.id).executeTakeFirstOrThrow()
      expect(await rolesIn(result.id)).toMatchObject({ is_admin: 1, is_learner: 1 })
      expect(row).toMatchObject({
        username_key: 'principal',
        phone_number: '9800000100',
        created_at: t.clock.now(),
      })
      expect(await verifyPassword(ADMIN_PASSWORD, row.password_hash)).toBe(true)
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { username: 'principal', password: ADMIN_PASSWORD },
      })
      expect(login.statusCode).toBe(200)
    })

    it('makes an existing user (any case) an admin with --promote, without touching the password', async () => {
      const user = await createUser(t.database, { username: 'Teacher' })
      const result = await createOrPromoteAdmin(t.database, t.clock, { username: 'teacher', promote: true })
      expect(result).toEqual({ action: 'promoted', id: user.id, username: 'Teacher' })
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow()
      expect((await rolesIn(user.id))?.is_admin).toBe(1)
      expect(row.password_hash).toBe(user.password_hash)
      expect((await createOrPromoteAdmin(t.database, t.clock, { username: 'Teacher' })).action).toBe('already_admin')
    })

    it.each([
      ['an invalid username', { username: 'a b', password: ADMIN_PASSWORD, phone: '9800000100' }, /Invalid username/],
      ['an invalid phone', { username: 'boss', password: ADMIN_PASSWORD, phone: '98000' }, /10-digit/],
      ['a common password', { username: 'boss', password: 'password1', phone: '9800000100' }, /too common/],
      ['a missing password for a new user', { username: 'boss', phone: '9800000100' }, /--password and --phone/],
    ])('refuses %s', async (_label, args, message) => {
      await expect(createOrPromoteAdmin(t.database, t.clock, args)).rejects.toThrow(message)
      expect(await t.db.selectFrom('users').selectAll().execute()).toEqual([])
    })

    // Whoever registered the name through the public form first would otherwise become the administrator.
    it('refuses to promote an existing learner without --promote, changing nothing', async () => {
      const user = await createUser(t.database, { username: 'admin' })
      await expect(createOrPromoteAdmin(t.database, t.clock, { username: 'Admin' })).rejects.toThrow(
        /already exists and is not an admin.*--promote/,
      )
      await expect(
        createOrPromoteAdmin(t.database, t.clock, { username: 'admin', password: ADMIN_PASSWORD, phone: '9800000100' }),
      ).rejects.toThrow(/never changes an existing account's password or phone/)
      const row = await t.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow()
      expect((await rolesIn(user.id))?.is_admin).toBe(0)
      expect(row).toMatchObject({ password_hash: user.password_hash, phone_number: user.phone_number })
      expect(await t.db.selectFrom('audit_events').selectAll().execute()).toEqual([])
    })

    it('refuses a password or phone for an existing admin rather than ignoring them', async () => {
      await createUser(t.database, { username: 'boss', is_admin: 1 })
      await expect(
        createOrPromoteAdmin(t.database, t.clock, { username: 'boss', password: ADMIN_PASSWORD }),
      ).rejects.toThrow(/never changes an existing account's password or phone/)
      await expect(
        createOrPromoteAdmin(t.database, t.clock, { username: 'boss', phone: '9800000100' }),
      ).rejects.toThrow(UserAdminError)
    })

    it('refuses --promote for a name nobody has', async () => {
      await expect(createOrPromoteAdmin(t.database, t.clock, { username: 'ghost', promote: true })).rejects.toThrow(
        /No user named "ghost" exists to promote/,
      )
    })

    it('refuses a phone number that another user has', async () => {
      await createUser(t.database, { phone_number: '9800000100' })
      await expect(
        createOrPromoteAdmin(t.database, t.clock, { username: 'boss', password: ADMIN_PASSWORD, phone: '9800000100' }),
      ).rejects.toThrow(UserAdminError)
    })
  })

  describe('createLearners', () => {
    it('creates NAME1..NAMEN with distinct phone numbers and one shared password', async () => {
      const result = await createLearners(t.database, t.clock, {
        count: 25,
        prefix: 'class',
        password: 'Pathshala-2026',
      })
      expect(result).toEqual({ created: 25, skipped: 0 })
      const rows = await t.db.selectFrom('users').selectAll().orderBy('id').execute()
      expect(rows.map((r) => r.username)).toEqual(Array.from({ length: 25 }, (_, i) => `class${i + 1}`))
      expect(new Set(rows.map((r) => r.phone_number)).size).toBe(25)
      for (const row of rows) expect(row.phone_number).toMatch(/^00\d{8}$/)
      expect(new Set(rows.map((r) => r.password_hash)).size).toBe(1)
      for (const r of rows) expect(await rolesIn(r.id)).toMatchObject({ is_learner: 1, is_admin: 0 })
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/token/',
        payload: { username: 'class7', password: 'Pathshala-2026' },
      })
      expect(login.statusCode).toBe(200)
    })

    it('skips names that exist (in any case) and phone numbers in use', async () => {
      await createUser(t.database, { username: 'CLASS2', phone_number: '0000000001' })
      const result = await createLearners(t.database, t.clock, {
        count: 3,
        prefix: 'class',
        password: 'Pathshala-2026',
      })
      expect(result).toEqual({ created: 2, skipped: 1 })
      const rows = await t.db.selectFrom('users').select(['username', 'phone_number']).orderBy('username_key').execute()
      expect(rows.map((r) => r.username)).toEqual(['class1', 'CLASS2', 'class3'])
      expect(new Set(rows.map((r) => r.phone_number)).size).toBe(3)
      expect(
        await createLearners(t.database, t.clock, { count: 3, prefix: 'class', password: 'Pathshala-2026' }),
      ).toEqual({
        created: 0,
        skipped: 3,
      })
    })

    it('creates more learners than one insert batch in one run', async () => {
      const result = await createLearners(t.database, t.clock, {
        count: 1203,
        prefix: 'load',
        password: 'Pathshala-2026',
      })
      expect(result.created).toBe(1203)
      const { count } = await t.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
      expect(Number(count)).toBe(1203)
    })

    it.each([
      ['a count of 0', { count: 0, prefix: 'class', password: 'Pathshala-2026' }, /--count/],
      [
        'names that would be too long',
        { count: 10, prefix: 'x'.repeat(29), password: 'Pathshala-2026' },
        /Invalid username/,
      ],
      ['a prefix with spaces', { count: 2, prefix: 'my class', password: 'Pathshala-2026' }, /Invalid username/],
      ['a common password', { count: 2, prefix: 'class', password: 'iloveyou' }, /too common/],
      ['a password similar to a username', { count: 2, prefix: 'class', password: 'class2-secret' }, /too similar/],
    ])('refuses %s and creates nobody', async (_label, args, message) => {
      await expect(createLearners(t.database, t.clock, args)).rejects.toThrow(message)
      expect(await t.db.selectFrom('users').selectAll().execute()).toEqual([])
    })
  })

  describe('setPaidAccess', () => {
    const until = (id: number) => paidAccessUntil(t.db, id)

    it('grants paid access with no end, and revokes it', async () => {
      const user = await createUser(t.database, { username: 'Nabin' })
      expect(await setPaidAccess(t.database, t.clock, { username: 'nabin', revoke: false })).toEqual({
        username: 'Nabin',
        changed: true,
        until: PAID_ACCESS_NO_END,
      })
      expect(await until(user.id)).toBe(PAID_ACCESS_NO_END)
      expect((await setPaidAccess(t.database, t.clock, { username: 'Nabin', revoke: false })).changed).toBe(false)
      expect(await setPaidAccess(t.database, t.clock, { username: 'Nabin', revoke: true })).toEqual({
        username: 'Nabin',
        changed: true,
        until: null,
      })
      expect(await until(user.id)).toBeNull()
    })

    it('grants days from now, or from the current end when access has not ended', async () => {
      const user = await createUser(t.database, { username: 'Gita' })
      const DAY = 86_400_000
      await setPaidAccess(t.database, t.clock, { username: 'gita', revoke: false, days: 30 })
      expect(await until(user.id)).toBe(t.clock.now() + 30 * DAY)
      await setPaidAccess(t.database, t.clock, { username: 'gita', revoke: false, days: 5 })
      expect(await until(user.id)).toBe(t.clock.now() + 35 * DAY)
      // Access that ended counts from now, not from its old end.
      t.clock.advance(100 * DAY)
      await setPaidAccess(t.database, t.clock, { username: 'gita', revoke: false, days: 2 })
      expect(await until(user.id)).toBe(t.clock.now() + 2 * DAY)
      await expect(setPaidAccess(t.database, t.clock, { username: 'gita', revoke: false, days: 0 })).rejects.toThrow(
        '--days must be a whole number',
      )
    })

    it('refuses an unknown username', async () => {
      await expect(setPaidAccess(t.database, t.clock, { username: 'ghost', revoke: false })).rejects.toThrow(
        'No user named "ghost" exists.',
      )
    })
  })
})
