import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openLiveMock } from '../../test/live-mock'
import { mockEnderOn } from '../../test/mock-ender'
import { useTestApp, type TestApp } from '../../test/test-app'
import { createDeliveryDrainer } from '../notifications/delivery-drainer'
import { notify } from '../notifications/notifications.service'
import { createShowLog } from '../questions/show-log'
import { inInstituteScope } from './institute-jobs'
import { instituteOwnedTables } from './tenancy'

const GRACE = 120_000

async function addInstitute(t: TestApp, slug: string) {
  const { id } = await t.db
    .insertInto('institutes')
    .values({ slug, name_en: slug, created_at: 0 })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** The institutes of the rows of every institute-owned table, by table (the test's own handle sees them all). */
async function institutesOfRows(t: TestApp) {
  const found: Record<string, number[]> = {}
  for (const table of instituteOwnedTables) {
    const { rows } = await sql<{ id: number }>`select distinct institute_id as id from ${sql.table(table)}`.execute(
      t.db,
    )
    if (rows.length > 0) found[table] = rows.map((row) => Number(row.id)).sort()
  }
  return found
}

// docs/decisions/098: jobs run outside requests, once per institute in its scope, and write into the rows' institute.
describe.each(dialects)('background jobs of several institutes on %s', (dialect) => {
  const t = useTestApp(dialect)

  // No attempt to finish: a first attempt finished in a scope fails today (first_attempt_scores' INSERT ... SELECT
  // names no institute_id; the outcomes' part of issue 74), the report of this branch says so.
  it('ends a mock of the second institute and writes its board into that institute', async () => {
    const mock = await openLiveMock(t)
    // Everything made so far moves to a second institute: the first holds nothing the job could end.
    const second = await addInstitute(t, 'second')
    for (const table of instituteOwnedTables) {
      await sql`update ${sql.table(table)} set institute_id = ${second}`.execute(t.db)
    }
    t.clock.set(mock.ends + GRACE + 1)
    expect(await mockEnderOn(t.appDatabase, t.clock).endDue()).toBe(1)
    const snapshot = await sql<{ id: number }>`select institute_id as id from leaderboard_snapshots`.execute(t.db)
    expect(snapshot.rows.map((row) => Number(row.id))).toEqual([second])
    const owners = await institutesOfRows(t)
    expect(Object.values(owners).every((ids) => ids.length === 1 && ids[0] === second)).toBe(true)
  })

  it('sends the deliveries of each institute’s notifications, each kept in its institute', async () => {
    const second = await addInstitute(t, 'second')
    const learner = await createUser(t.database)
    const tell = (institute: number, en: string) =>
      inInstituteScope('test', institute, () =>
        t.appDatabase.transaction((trx) =>
          notify(
            trx,
            [
              {
                userId: learner.id,
                kind: 'score_changed',
                text: { en, ne: en },
                link: '/results/1',
                sms: { text: en, purpose: 'notice' },
              },
            ],
            t.clock.now(),
          ),
        ),
      )
    await tell(1, 'first')
    await tell(second, 'second')
    const drainer = createDeliveryDrainer({ ...t, database: t.appDatabase }, t.app.log)
    expect(await drainer.drainOnce()).toBe(2)
    const rows = await sql<{ institute: number; status: string }>`select institute_id as institute, status
      from deliveries where channel = 'sms' order by institute_id`.execute(t.db)
    expect(rows.rows.map((row) => [Number(row.institute), row.status])).toEqual([
      [1, 'done'],
      [second, 'done'],
    ])
  })

  it('writes the questions shown in each institute’s requests into that institute', async () => {
    const second = await addInstitute(t, 'second')
    const learner = await createUser(t.database)
    const mock = await openLiveMock(t)
    const [first, other] = mock.questionIds
    await sql`update questions set institute_id = ${second} where id = ${other!}`.execute(t.db)
    const shows = createShowLog(t.appDatabase.db, { error: () => {} })
    inInstituteScope('test', 1, () => shows.record(learner.id, [first!], 1))
    inInstituteScope('test', second, () => shows.record(learner.id, [other!], 2))
    await shows.flush()
    const rows = await sql<{ question: number; institute: number }>`select question_id as question,
      institute_id as institute from question_shows order by question_id`.execute(t.db)
    expect(rows.rows.map((row) => [Number(row.question), Number(row.institute)])).toEqual([
      [first, 1],
      [other, second],
    ])
  })
})
