import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { fromSqlite } from '../database'
import { migrateUpTo } from '../migrate'
import { SQLite } from '../sqlite-driver'

// Decision 087: SQLite keeps an attempt's answers and question states together, `WITHOUT ROWID` on the key they had.
describe('migration 0036_answers_clustered on SQLite', () => {
  it('keeps every answer and state, the keys, the references to the attempt, and drops the rowid', async () => {
    const database = fromSqlite(new SQLite(':memory:'))
    const { db } = database
    await migrateUpTo(database, '0035_owed_practice_cards')
    // Answers alone, without their attempts' many columns: the reference is checked by the schema's text below.
    await sql`pragma foreign_keys = off`.execute(db)
    const saved = [
      { attempt_id: 2, question_id: 7, option_id: 30, saved_at: 1_000 },
      { attempt_id: 1, question_id: 9, option_id: null, saved_at: 1_001 },
      { attempt_id: 1, question_id: 7, option_id: 28, saved_at: 1_002 },
    ]
    await db.insertInto('attempt_answers').values(saved).execute()
    const states = [
      { attempt_id: 2, question_id: 7, marked: 1, visited: 1, time_spent: 40 },
      { attempt_id: 1, question_id: 9, marked: 0, visited: 1, time_spent: 5 },
    ]
    await db.insertInto('attempt_question_states').values(states).execute()
    const withoutRowid = sql<{ name: string; wr: number }>`select name, wr from pragma_table_list
      where name in ('attempt_answers', 'attempt_question_states') order by name`

    expect((await withoutRowid.execute(db)).rows.map((table) => table.wr)).toEqual([0, 0])
    await migrateUpTo(database, '0036_answers_clustered')

    expect((await withoutRowid.execute(db)).rows).toEqual([
      { name: 'attempt_answers', wr: 1 },
      { name: 'attempt_question_states', wr: 1 },
    ])
    expect(await db.selectFrom('attempt_answers').selectAll().orderBy('saved_at').execute()).toEqual(saved)
    expect(await db.selectFrom('attempt_question_states').selectAll().orderBy('attempt_id', 'desc').execute()).toEqual(
      states,
    )
    await db.insertInto('attempt_question_states').values({ attempt_id: 3, question_id: 1 }).execute()
    expect(
      await db
        .selectFrom('attempt_question_states')
        .select(['marked', 'visited', 'time_spent'])
        .where('attempt_id', '=', 3)
        .execute(),
    ).toEqual([{ marked: 0, visited: 0, time_spent: 0 }])
    for (const table of ['attempt_answers', 'attempt_question_states']) {
      const keys = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(db)
      expect(keys.rows.filter((column) => column.pk > 0).map((column) => column.name)).toEqual([
        'attempt_id',
        'question_id',
      ])
      const references = await sql<{ table: string; from: string; to: string; on_delete: string }>`
        select "table", "from", "to", on_delete from pragma_foreign_key_list(${table})`.execute(db)
      expect(references.rows).toEqual([{ table: 'attempts', from: 'attempt_id', to: 'id', on_delete: 'CASCADE' }])
    }
    await expect(
      db.insertInto('attempt_answers').values({ attempt_id: 1, question_id: 7, option_id: 1, saved_at: 2 }).execute(),
    ).rejects.toThrow(/UNIQUE/)
    await database.destroy()
  })
})
