import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt, refused } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// Issue 74 (docs/decisions/100): tags' names and shown sets' keys are unique within an institute, not the deployment;
// the institutes that use each picture are recorded from the rows that name it.
describe.each(dialects)('migration 0044_per_institute_keys on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('keeps the rows, their ids and references, and lets a second institute have the same tag and set', async () => {
    const opened = await openDatabaseAt(dialect, '0040_institutes')
    drop = opened.drop
    const { db, insert } = opened
    await sql`insert into institutes (id, slug, name_en, created_at) values (2, 'second', 'Second', 0)`.execute(db)
    if (dialect === 'postgres') await sql`select setval('institutes_id_seq', 2)`.execute(db)
    const user = await insert('users', {
      username: 'learner',
      username_key: 'learner',
      phone_number: '9800000001',
      password_hash: 'x',
      created_at: 0,
    })
    const question = await insert('questions', { revision_id: null, deleted_at: null })
    const science = await insert('tags', { name: 'Science', name_key: 'science' })
    const gone = await insert('tags', { name: 'Gone', name_key: 'gone' })
    await db.deleteFrom('tags').where('id', '=', gone).execute()
    await db.insertInto('question_tags').values({ question_id: question, tag_id: science, position: 1 }).execute()
    const set = await insert('shown_sets', { set_key: 'k1', created_at: 5 })
    await db.insertInto('shown_set_questions').values({ set_id: set, question_id: question }).execute()
    await db.insertInto('set_shows').values({ user_id: user, set_id: set, shown_at: 6 }).execute()
    // A picture the second institute's logo names, and one nothing names.
    const picture = (hash: string) => ({
      hash,
      data: Buffer.from(hash),
      width: 1,
      height: 1,
      pixels_hash: hash,
      created_at: 0,
      keyed: 1,
    })
    await db
      .insertInto('pictures')
      .values([picture('a'.repeat(64)), picture('b'.repeat(64))])
      .execute()
    await db
      .updateTable('institutes')
      .set({ logo_hash: 'a'.repeat(64) })
      .where('id', '=', 2)
      .execute()

    await migrateToLatest(opened.database)
    const uses = await sql<{ hash: string; institute_id: number }>`select hash, institute_id from picture_uses`.execute(
      db,
    )
    expect(uses.rows.map((row) => [row.hash, Number(row.institute_id)])).toEqual([['a'.repeat(64), 2]])

    expect(await db.selectFrom('tags').select(['id', 'name', 'name_key', 'institute_id']).execute()).toEqual([
      { id: science, name: 'Science', name_key: 'science', institute_id: 1 },
    ])
    expect(await db.selectFrom('question_tags').select(['question_id', 'tag_id']).execute()).toEqual([
      { question_id: question, tag_id: science },
    ])
    expect(await db.selectFrom('shown_sets').select(['id', 'set_key', 'created_at']).execute()).toEqual([
      { id: set, set_key: 'k1', created_at: 5 },
    ])
    expect(await db.selectFrom('set_shows').select(['user_id', 'set_id']).execute()).toEqual([
      { user_id: user, set_id: set },
    ])

    // Another institute's tag of the same name and set of the same key; a second in the same institute is refused.
    const theirs = await insert('tags', { name: 'science', name_key: 'science', institute_id: 2 })
    expect(theirs).toBeGreaterThan(gone)
    await insert('shown_sets', { set_key: 'k1', created_at: 7, institute_id: 2 })
    await refused(insert('tags', { name: 'SCIENCE', name_key: 'science' }))
    await refused(insert('shown_sets', { set_key: 'k1', created_at: 8 }))
    // The references still hold: a tag that does not exist cannot be named.
    await refused(db.insertInto('question_tags').values({ question_id: question, tag_id: 999, position: 2 }).execute())
    await refused(db.insertInto('set_shows').values({ user_id: user, set_id: 999, shown_at: 9 }).execute())
  })
})
