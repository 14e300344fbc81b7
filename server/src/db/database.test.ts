import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestDatabase, dropTestDatabase } from '../../test/test-app'
import { createDatabase, sqliteReaderOf, type Database } from './database'
import { migrateToLatest } from './migrate'
import { precompile } from './precompiled-query'
import { SQLite } from './sqlite-driver'

describe('SQLite group commit and reader connection', () => {
  let dir: string
  let database: Database

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'quiz-db-'))
    database = createDatabase({ kind: 'sqlite', file: path.join(dir, 'quiz.db') })
    await migrateToLatest(database)
  })
  afterEach(async () => {
    await database.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  it('reads a precompiled query as the rows Kysely reads, and leaves the shared statement returning objects', async () => {
    const { id } = await insertPlan(database.db, 'Monthly')
    const select = (db: Database['db'], planId: number) =>
      db
        .selectFrom('plans as p')
        .innerJoin('plans as again', 'again.id', 'p.id')
        .select(['p.name_en', 'p.price_paisa', 'again.name_en', sql<null>`null`.as('nothing')])
        .where('p.id', '=', planId)
    const precompiled = precompile(select)
    const expected = [{ name_en: 'Monthly', price_paisa: 10_000, nothing: null }]
    // On the reader, and in a transaction, where Kysely's reads share the writer's cached statements with it.
    expect((await precompiled(database.db, id)).rows).toEqual(expected)
    await database.transaction(async (trx) => {
      const byKysely = await select(trx, id).execute()
      const rows = (await precompiled(trx, id)).rows
      expect(rows).toEqual(byKysely)
      expect(Object.keys(rows[0]!)).toEqual(Object.keys(byKysely[0]!))
      // The same statement through Kysely again still gives objects, not the arrays the precompiled read asked for.
      expect(await select(trx, id).execute()).toEqual(expected)
      expect((await precompiled(trx, id + 1)).rows).toEqual([])
    })
  })

  const insertPlan = (trx: Database['db'], name: string) =>
    trx
      .insertInto('plans')
      .values({ name_en: name, name_ne: '', price_paisa: 10_000, days: 30, active: 1, created_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow()
  // A write by another connection to the file: a command-line tool's, or another worker's.
  const insertPlanElsewhere = (name: string) => {
    const other = new SQLite(path.join(dir, 'quiz.db'))
    try {
      other
        .prepare(
          'insert into plans (name_en, name_ne, price_paisa, days, active, created_at) values (?, ?, ?, ?, ?, ?)',
        )
        .run(name, '', 10_000, 30, 1, 0)
    } finally {
      other.close()
    }
  }
  const planNames = async () =>
    (await database.db.selectFrom('plans').select('name_en').orderBy('id').execute()).map((row) => row.name_en)

  it('commits transactions that arrive together in one group, each all or nothing, each told its own outcome', async () => {
    const refused = new Error('refused')
    const outcomes = await Promise.allSettled(
      ['one', 'two', 'three', 'four', 'five'].map((name) =>
        database.transaction(async (trx) => {
          const { id } = await insertPlan(trx, name)
          await insertPlan(trx, `${name} again`)
          // The third fails after writing: its two rows go, the others' stay.
          if (name === 'three') throw refused
          return id
        }),
      ),
    )
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ])
    expect((outcomes[2] as PromiseRejectedResult).reason).toBe(refused)
    expect(await planNames()).toEqual([
      'one',
      'one again',
      'two',
      'two again',
      'four',
      'four again',
      'five',
      'five again',
    ])
    // Each transaction saw the ones before it: ids follow the order of arrival.
    const ids = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []))
    expect([...ids].sort((a, b) => a - b)).toEqual(ids)
  })

  it('groups transactions begun by different callbacks of one event-loop turn, as requests arriving together are', async () => {
    const reader = sqliteReaderOf(database.db)!
    const committed = () => (reader.prepare('select count(*) as n from plans').get() as { n: number }).n
    // Two immediates queued together run in one turn, each its own callback (as two requests' bytes would be). In one group,
    // the second sees the first's row uncommitted; had the first committed alone, the reader would see it.
    const seenByReader = await new Promise<number[]>((resolve) => {
      const seen: number[] = []
      const begin = (name: string) => () =>
        void database.transaction(async (trx) => {
          seen.push(committed())
          await insertPlan(trx, name)
          if (seen.length === 2) resolve(seen)
        })
      setImmediate(begin('first'))
      setImmediate(begin('second'))
    })
    expect(seenByReader).toEqual([0, 0])
    expect(await planNames()).toEqual(['first', 'second'])
  })

  it('settles a transaction only after its group has committed', async () => {
    let committedWhenSettled: string[] | undefined
    await Promise.all([
      database.transaction(async (trx) => insertPlan(trx, 'first')),
      database
        .transaction(async (trx) => insertPlan(trx, 'second'))
        .then(async () => {
          committedWhenSettled = await planNames()
        }),
    ])
    expect(committedWhenSettled).toEqual(['first', 'second'])
  })

  it('fails the whole group, acknowledging nothing, when SQLite has rolled the transaction back under it', async () => {
    const lost = new Error('the disk is full')
    // The first transaction holds the connection, so the next two arrive together and form one group.
    let release!: () => void
    let started!: () => void
    const holds = new Promise<void>((resolve) => (started = resolve))
    const holding = database.transaction(async (trx) => {
      const released = new Promise<void>((resolve) => (release = resolve))
      started()
      await released
      return insertPlan(trx, 'before')
    })
    await holds
    const group = Promise.allSettled([
      database.transaction((trx) => insertPlan(trx, 'written first')),
      database.transaction(async (trx) => {
        await insertPlan(trx, 'written second')
        // What SQLite does itself on a full disk or an I/O error: the whole transaction is gone.
        await sql`rollback`.execute(trx)
        throw lost
      }),
    ])
    release()
    await holding
    const outcomes = await group
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected'])
    expect(outcomes.map((outcome) => (outcome as PromiseRejectedResult).reason)).toEqual([lost, lost])
    expect(await planNames()).toEqual(['before'])
    await database.transaction((trx) => insertPlan(trx, 'after'))
    expect(await planNames()).toEqual(['before', 'after'])
  })

  it('keeps working after a group in which every transaction failed', async () => {
    await expect(database.transaction(async () => Promise.reject(new Error('no')))).rejects.toThrow('no')
    await database.transaction((trx) => insertPlan(trx, 'after'))
    expect(await planNames()).toEqual(['after'])
  })

  it('reads on the reader connection what is committed, never what a transaction in progress has written', async () => {
    const reader = sqliteReaderOf(database.db)!
    const count = () => (reader.prepare('select count(*) as n from plans').get() as { n: number }).n
    let duringTransaction: number | undefined
    await database.transaction(async (trx) => {
      await insertPlan(trx, 'pending')
      duringTransaction = count()
    })
    expect(duringTransaction).toBe(0)
    expect(count()).toBe(1)
  })

  // Decision 085: the reader keeps its snapshot across reads, and leaves it before any commit of this process.
  describe('the reader held snapshot', () => {
    const reader = () => sqliteReaderOf(database.db)!
    const count = () => (reader().prepare('select count(*) as n from plans').get() as { n: number }).n

    it('keeps one snapshot across reads', () => {
      count()
      expect(reader().connection.inTransaction).toBe(true)
      count()
      expect(reader().connection.inTransaction).toBe(true)
    })

    it("reads this process's commits at once: a write outside a transaction, a group commit, Kysely's transaction", async () => {
      expect(count()).toBe(0)
      await insertPlan(database.db, 'autocommit')
      expect(count()).toBe(1)
      await database.transaction((trx) => insertPlan(trx, 'grouped'))
      expect(count()).toBe(2)
      await database.db.transaction().execute((trx) => insertPlan(trx, 'kysely'))
      expect(count()).toBe(3)
    })

    it("reads another connection's commit once the snapshot is older than its bound (a command-line tool's write)", async () => {
      expect(count()).toBe(0)
      insertPlanElsewhere('cli')
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(count()).toBe(1)
    })

    it('lets a checkpoint reset the log while reads go on: the log stays bounded', async () => {
      for (let index = 0; index < 3_000; index++) {
        await insertPlan(database.db, `plan ${index}`)
        count()
      }
      // 3,000 commits of a few pages each would be tens of MB without the log restarting; SQLite checkpoints every
      // 1,000 pages, and restarts the log only when no reader holds it.
      expect(statSync(path.join(dir, 'quiz.db-wal')).size).toBeLessThan(8 * 1024 * 1024)
      const { rows } = await sql<{
        busy: number
        log: number
        checkpointed: number
      }>`pragma wal_checkpoint(passive)`.execute(database.db)
      expect(rows[0]!.busy).toBe(0)
      expect(rows[0]!.checkpointed).toBe(rows[0]!.log)
    })
  })

  it('takes no snapshot across reads when other processes share the file', async () => {
    await database.destroy()
    database = createDatabase({ kind: 'sqlite', file: path.join(dir, 'quiz.db'), sharedWithOtherProcesses: true })
    const reader = sqliteReaderOf(database.db)!
    reader.prepare('select count(*) as n from plans').get()
    expect(reader.connection.inTransaction).toBe(false)
    insertPlanElsewhere('worker')
    expect(reader.prepare('select count(*) as n from plans').get()).toEqual({ n: 1 })
  })
})

// The hot queries run as named prepared statements on PostgreSQL (decision 040), unless turned off for a pooler.
describe.runIf(process.env.TEST_DATABASE_URL)('PostgreSQL prepared statements', () => {
  let name: string
  let url: string
  beforeAll(async () => {
    ;({ name, url } = await createTestDatabase('quiz_prepared'))
  })
  afterAll(() => dropTestDatabase(name))

  const findPlan = precompile((db: Database['db'], id: number) =>
    db.selectFrom('plans').select('name_en').where('id', '=', id),
  )

  /** Runs the precompiled query twice on a one-connection pool; the statements that connection holds prepared. */
  async function preparedAfterTwoRuns(preparedStatements: boolean) {
    const database = createDatabase({ kind: 'postgres', url, poolSize: 1, preparedStatements })
    try {
      await migrateToLatest(database)
      expect((await findPlan(database.db, 1)).rows).toEqual([])
      expect((await findPlan(database.db, 2)).rows).toEqual([])
      const { rows } = await sql<{
        name: string
        statement: string
      }>`select name, statement from pg_prepared_statements order by name`.execute(database.db)
      return rows
    } finally {
      await database.destroy()
    }
  }

  it('prepares a precompiled query once per connection, by name', async () => {
    const prepared = await preparedAfterTwoRuns(true)
    expect(prepared).toEqual([
      { name: expect.stringMatching(/^precompiled_\d+$/), statement: expect.stringContaining('"plans"') },
      // The migrations' transactions parsed the BEGIN that later ones send with their first statement (decision 139).
      { name: 'tx_begin', statement: 'begin' },
    ])
  })

  it('prepares nothing by name when turned off', async () => {
    expect(await preparedAfterTwoRuns(false)).toEqual([])
  })
})
