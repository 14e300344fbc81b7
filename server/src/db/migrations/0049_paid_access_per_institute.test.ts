import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'
import { paidAccessPerInstitute } from './0049_paid_access_per_institute'

// docs/decisions/103: paid access moves from the account to each of its memberships, keeping what the learner had.
describe.each(dialects)('migration 0049_paid_access_per_institute on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('gives every membership the account’s end, and going down gives the account its latest', async () => {
    const opened = await openDatabaseAt(dialect, '0048_row_security')
    drop = opened.drop
    const { db, insert } = opened
    await db.insertInto('institutes').values({ id: 2, slug: 'second', name_en: 'Second', created_at: 0 }).execute()
    const account = (phone: string, paidAccessUntil: number | null) =>
      insert('users', {
        username: `u${phone}`,
        username_key: `u${phone}`,
        phone_number: phone,
        password_hash: 'x',
        created_at: 0,
        paid_access_until: paidAccessUntil,
      })
    const paid = await account('9800000001', 5_000)
    const free = await account('9800000002', null)
    const member = (user: number, institute: number) =>
      db.insertInto('memberships').values({ user_id: user, institute_id: institute, created_at: 0 }).execute()
    await member(paid, 1)
    await member(paid, 2)
    await member(free, 1)

    await migrateToLatest(opened.database)
    const memberships = () =>
      db
        .selectFrom('memberships')
        .select(['user_id', 'institute_id', 'paid_access_until'])
        .orderBy('user_id')
        .orderBy('institute_id')
        .execute()
    const asNumbers = (rows: Record<string, unknown>[]) =>
      rows.map((row) => Object.values(row).map((value) => (value === null ? null : Number(value))))
    expect(asNumbers(await memberships())).toEqual([
      [paid, 1, 5_000],
      [paid, 2, 5_000],
      [free, 1, null],
    ])
    expect(Object.keys(await db.selectFrom('users').selectAll().executeTakeFirstOrThrow())).not.toContain(
      'paid_access_until',
    )

    // Paid at the second institute later: down keeps the latest end any membership had.
    await db.updateTable('memberships').set({ paid_access_until: 9_000 }).where('institute_id', '=', 2).execute()
    await paidAccessPerInstitute().down!(db as never)
    const users = await db.selectFrom('users').select(['id', 'paid_access_until']).orderBy('id').execute()
    expect(asNumbers(users)).toEqual([
      [paid, 9_000],
      [free, null],
    ])
  })
})
