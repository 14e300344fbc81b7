import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt, refused } from '../../../test/migration-database'
import { lastShown } from '../../questions/question-shows.repository'
import { isUniqueViolation } from '../errors'
import { migrateUpTo } from '../migrate'

// A database an older server left: learners' shown questions, one row per question. After the upgrade those rows
// stay and still count; a set is one row per set of questions, its questions one row each, a learner's show of it
// one row; each refuses a second copy and what names nothing, and a learner's removal takes their shows.
describe.each(dialects)('migration 0015_paper_set_shows on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('keeps the shown questions, and adds sets of questions shown together', async () => {
    const opened = await openDatabaseAt(dialect, '0014_live_mocks')
    drop = opened.drop
    // The tables as they were before this migration.
    const { database, db, insert } = opened
    const now = Date.now()
    const userOf = (name: string, phone: string) =>
      insert('users', { username: name, username_key: name, phone_number: phone, password_hash: 'x', created_at: now })
    const ram = await userOf('ram', '9800000001')
    const sita = await userOf('sita', '9800000002')
    const [q1, q2, q3] = [
      await insert('questions', { revision_id: null, deleted_at: null }),
      await insert('questions', { revision_id: null, deleted_at: null }),
      await insert('questions', { revision_id: null, deleted_at: null }),
    ]
    await db
      .insertInto('question_shows')
      .values({ user_id: ram, question_id: q1, shown_at: now + 5_000 })
      .execute()

    await migrateUpTo(database, '0015_paper_set_shows')

    const t = database.db
    expect(await t.selectFrom('question_shows').selectAll().execute()).toEqual([
      { user_id: ram, question_id: q1, shown_at: now + 5_000 },
    ])

    const set = (
      await t
        .insertInto('shown_sets')
        .values({ set_key: 'k1', created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
    expect(
      isUniqueViolation(await refused(t.insertInto('shown_sets').values({ set_key: 'k1', created_at: now }).execute())),
    ).toBe(true)
    await t
      .insertInto('shown_set_questions')
      .values([
        { set_id: set, question_id: q1! },
        { set_id: set, question_id: q2! },
      ])
      .execute()
    expect(
      isUniqueViolation(
        await refused(t.insertInto('shown_set_questions').values({ set_id: set, question_id: q1! }).execute()),
      ),
    ).toBe(true)
    await refused(t.insertInto('shown_set_questions').values({ set_id: set, question_id: 999_999 }).execute())

    const show = (userId: number, setId: number) =>
      t.insertInto('set_shows').values({ user_id: userId, set_id: setId, shown_at: now }).execute()
    await show(ram, set)
    await show(sita, set)
    expect(isUniqueViolation(await refused(show(ram, set)))).toBe(true)
    await refused(show(ram, 999_999))
    await refused(show(999_999, set))

    // A draw reads the old rows and the sets alike, the latest of them.
    expect(await lastShown(t, ram, [q1!, q2!, q3!])).toEqual(
      new Map([
        [q1!, now + 5_000],
        [q2!, now],
      ]),
    )

    // A learner's removal takes their shows; a set goes only once nobody's show names it, with its questions.
    await t.deleteFrom('users').where('id', '=', ram).execute()
    expect(await t.selectFrom('set_shows').select('user_id').execute()).toEqual([{ user_id: sita }])
    expect(await t.selectFrom('question_shows').selectAll().execute()).toEqual([])
    await refused(t.deleteFrom('shown_sets').execute())
    await t.deleteFrom('set_shows').execute()
    await t.deleteFrom('shown_sets').execute()
    expect(await t.selectFrom('shown_set_questions').selectAll().execute()).toEqual([])
    if (dialect === 'sqlite') expect((await sql`pragma foreign_key_check`.execute(t)).rows).toEqual([])
  })
})
