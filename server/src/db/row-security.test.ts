import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { TEST_APP_ROLE, useTestApp } from '../../test/test-app'
import { bypassesRowSecurity, currentRole } from './app-role'
import { inInstituteScope } from './institute-jobs'
import { tableOwners } from './tenancy'

// docs/decisions/098: on PostgreSQL the database holds each institute's rows apart too, for the app's role.
describe.skipIf(!dialects.includes('postgres'))('row security on postgres', () => {
  const t = useTestApp('postgres')
  const tagNames = () =>
    t.appDatabase.db
      .selectFrom('tags')
      .select('name')
      .orderBy('name')
      .execute()
      .then((rows) => rows.map((row) => row.name))

  it('holds every institute-owned table to the session’s institute, forced, and knows whose every table is', async () => {
    const { rows } = await sql<{ table: string; enabled: boolean; forced: boolean; policy: string | null }>`
      select c.relname as "table", c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
        (select string_agg(p.qual, ' | ') from pg_policies p
          where p.schemaname = 'public' and p.tablename = c.relname) as policy
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' and c.relname not like 'kysely_%'`.execute(t.db)
    const owners: Record<string, string> = tableOwners
    // A table the list does not place forces a decision: whose its rows are, and a policy if an institute's.
    expect(rows.map((row) => row.table).filter((table) => !(table in owners))).toEqual([])
    const held = (owner: string) =>
      rows
        .filter((row) => owners[row.table] === owner)
        .filter((row) => row.enabled && row.forced && row.policy?.includes("current_setting('app.institute_id'"))
        .map((row) => row.table)
        .sort()
    const instituteTables = Object.keys(owners).filter((table) => owners[table] === 'institute')
    expect(held('institute')).toEqual(instituteTables.sort())
    expect([...held('account'), ...held('deployment')]).toEqual([])
  })

  it('shows a session set to no institute no rows, the first institute’s included, and lets it write none', async () => {
    await t.db.insertInto('tags').values({ name: 'main’s', name_key: 'main’s' }).execute()
    expect(await currentRole(t.appDatabase)).toBe(TEST_APP_ROLE)
    expect(await bypassesRowSecurity(t.appDatabase)).toBe(false)
    expect(await bypassesRowSecurity(t.database)).toBe(true)

    expect(await tagNames()).toEqual([])
    const insert = t.appDatabase.db.insertInto('tags').values({ name: 'stray', name_key: 'stray' }).execute()
    await expect(insert).rejects.toThrow(/row-level security/)
    // Empty, as a connection is reset to after an institute's work: no rows, and no error from the cast.
    const empty = await sql<{ n: string }>`select set_config('app.institute_id', '', false),
      (select count(*) from tags) as n`.execute(t.appDatabase.db)
    expect(Number(empty.rows[0]!.n)).toBe(0)
    expect(await inInstituteScope('test', 1, tagNames)).toEqual(['main’s'])
  })

  it('sets each checked-out connection to its work’s institute, and back to none outside any', async () => {
    const { id: second } = await t.db
      .insertInto('institutes')
      .values({ slug: 'second', name_en: 'Second', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await sql`insert into tags (name, name_key, institute_id) values ('one', 'one', 1), ('two', 'two', ${second})`.execute(
      t.db,
    )
    // Raw SQL is not rewritten by the filter: what each sees here is the database's doing alone.
    const raw = () =>
      sql<{ name: string }>`select name from tags order by name`
        .execute(t.appDatabase.db)
        .then((result) => result.rows.map((row) => row.name))
    for (let round = 0; round < 3; round++) {
      const [one, two, none] = await Promise.all([
        inInstituteScope('test', 1, raw),
        inInstituteScope('test', second, raw),
        raw(),
      ])
      expect([one, two, none]).toEqual([['one'], ['two'], []])
    }
    const inTransaction = await inInstituteScope('test', second, () =>
      t.appDatabase.transaction((trx) => sql<{ name: string }>`select name from tags`.execute(trx)),
    )
    expect(inTransaction.rows).toEqual([{ name: 'two' }])
  })
})
