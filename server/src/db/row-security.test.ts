import { sql } from 'kysely'
import pg from 'pg'
import { describe, expect, it, onTestFinished } from 'vitest'
import { dialects } from '../../test/dialects'
import { TEST_APP_ROLE, testDatabaseUrl, useTestApp } from '../../test/test-app'
import { bypassesRowSecurity, currentRole } from './app-role'
import { fromPostgresPool } from './database'
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

  // A second institute beside the first, each with a tag.
  const addSecond = async () => {
    const { id } = await t.db
      .insertInto('institutes')
      .values({ slug: 'second', name_en: 'Second', created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await sql`insert into tags (name, name_key, institute_id) values ('one', 'one', 1), ('two', 'two', ${id})`.execute(
      t.db,
    )
    return id
  }

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
    const second = await addSecond()
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

  describe('on one connection, set in the round trip of the work’s first statement (docs/decisions/134)', () => {
    // The app's role on a pool of one connection, counting the statements sent to it (each a round trip).
    const oneConnection = async () => {
      const second = await addSecond()
      const pool = new pg.Pool({ connectionString: await testDatabaseUrl(t, TEST_APP_ROLE), max: 1 })
      let sent = 0
      pool.on('connect', (client) => {
        const query = client.query.bind(client) as (...args: unknown[]) => unknown
        client.query = ((...args: unknown[]) => {
          sent++
          return query(...args)
        }) as typeof client.query
      })
      const database = fromPostgresPool(pool)
      onTestFinished(() => database.destroy())
      const names = (institute: number) =>
        inInstituteScope('test', institute, () =>
          // With a parameter, as nearly every statement the app sends (text alone may hold several statements).
          sql<{ name: string }>`select name from tags where name like ${'%'} order by name`
            .execute(database.db)
            .then((result) => result.rows.map((row) => row.name)),
        )
      return { second, database, names, sent: () => sent }
    }

    it('sends a switch of institute and the statement as one', async () => {
      const { second, names, sent } = await oneConnection()
      expect(await names(1)).toEqual(['one'])
      const first = sent()
      expect(await names(second)).toEqual(['two'])
      expect(await names(1)).toEqual(['one'])
      expect(sent() - first).toBe(2)
      expect(await names(1)).toEqual(['one'])
      expect(sent() - first).toBe(3)
    })

    it('sets the connection again after a statement carrying the setting failed, which undid it', async () => {
      const { second, database, names } = await oneConnection()
      expect(await names(1)).toEqual(['one'])
      const failing = inInstituteScope('test', second, () => sql`select 1 / ${0}`.execute(database.db))
      await expect(failing).rejects.toThrow(/division by zero/)
      expect(await names(second)).toEqual(['two'])
    })

    it('sets the connection again after a rolled-back transaction whose BEGIN carried the setting', async () => {
      const { second, database, names } = await oneConnection()
      expect(await names(1)).toEqual(['one'])
      const rolledBack = inInstituteScope('test', second, () =>
        database.transaction(async (trx) => {
          const { rows } = await sql<{ name: string }>`select name from tags`.execute(trx)
          expect(rows).toEqual([{ name: 'two' }])
          throw new Error('undone')
        }),
      )
      await expect(rolledBack).rejects.toThrow('undone')
      expect(await names(second)).toEqual(['two'])
      const committed = await inInstituteScope('test', 1, () =>
        database.transaction((trx) => sql<{ name: string }>`select name from tags`.execute(trx)),
      )
      expect(committed.rows).toEqual([{ name: 'one' }])
      expect(await names(1)).toEqual(['one'])
    })

    // Decision 139: a transaction's BEGIN waits for its first statement and goes in the same round trip.
    describe('a BEGIN held back to its first statement', () => {
      const tagsIn = (database: Awaited<ReturnType<typeof oneConnection>>['database'], institute: number) =>
        inInstituteScope('test', institute, () =>
          sql<{ name: string }>`select name from tags where name like ${'%'} order by name`
            .execute(database.db)
            .then((result) => result.rows.map((row) => row.name)),
        )

      it('sends the BEGIN with the first statement, and nothing for a transaction that sent none', async () => {
        const { second, database, sent } = await oneConnection()
        const inTransaction = (institute: number) =>
          inInstituteScope('test', institute, () =>
            database.transaction(async (trx) => {
              const { rows } = await sql<{ name: string }>`select name from tags where name like ${'%'}`.execute(trx)
              return rows.map((row) => row.name)
            }),
          )
        // The connection's first BEGIN goes alone, parsing it.
        expect(await inTransaction(1)).toEqual(['one'])
        let before = sent()
        expect(await inTransaction(1)).toEqual(['one'])
        expect(sent() - before).toBe(2)
        // With a switch of institute too: the setting, the BEGIN and the statement in one.
        before = sent()
        expect(await inTransaction(second)).toEqual(['two'])
        expect(sent() - before).toBe(2)
        before = sent()
        await inInstituteScope('test', 1, () => database.transaction(async () => 'nothing sent'))
        expect(sent() - before).toBe(0)
        expect(await tagsIn(database, 1)).toEqual(['one'])
      })

      it('sets the institute of a transaction whose BEGIN was held, on a connection never set to one', async () => {
        const { second, database } = await oneConnection()
        // Outside any institute there is nothing to set, so the connection parses its BEGIN before its setting.
        await database.transaction((trx) => sql`select ${1}`.execute(trx))
        await database.transaction((trx) => sql`select ${1}`.execute(trx))
        const names = await inInstituteScope('test', second, () =>
          database.transaction(async (trx) =>
            (await sql<{ name: string }>`select name from tags where name like ${'%'}`.execute(trx)).rows.map(
              (row) => row.name,
            ),
          ),
        )
        expect(names).toEqual(['two'])
        expect(await tagsIn(database, 1)).toEqual(['one'])
      })

      it('undoes the statement that carried the BEGIN when a later one fails', async () => {
        const { database } = await oneConnection()
        const insertThenFail = (name: string) =>
          inInstituteScope('test', 1, () =>
            database.transaction(async (trx) => {
              await sql`insert into tags (name, name_key) values (${name}, ${name})`.execute(trx)
              await sql`select 1 / ${0}`.execute(trx)
            }),
          )
        await expect(insertThenFail('first')).rejects.toThrow(/division by zero/)
        await expect(insertThenFail('second')).rejects.toThrow(/division by zero/)
        expect(await tagsIn(database, 1)).toEqual(['one'])
      })

      it('leaves the connection usable after the statement carrying the BEGIN failed', async () => {
        const { database } = await oneConnection()
        const failing = () =>
          inInstituteScope('test', 1, () => database.transaction((trx) => sql`select 1 / ${0}`.execute(trx)))
        await expect(failing()).rejects.toThrow(/division by zero/)
        await expect(failing()).rejects.toThrow(/division by zero/)
        const committed = await inInstituteScope('test', 1, () =>
          database.transaction(async (trx) => {
            await sql`insert into tags (name, name_key) values (${'kept'}, ${'kept'})`.execute(trx)
            return 'committed'
          }),
        )
        expect(committed).toBe('committed')
        expect(await tagsIn(database, 1)).toEqual(['kept', 'one'])
      })
    })
  })
})
