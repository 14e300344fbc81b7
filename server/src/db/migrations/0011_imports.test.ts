import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { contentHash } from '../../questions/content-hash'
import { migrateToLatest } from '../migrate'

// A bank an older server left: questions with revisions (an edited one, a deleted one, the same question typed
// twice with other spacing and option order). After the upgrade every revision carries the hash a new revision of
// the same content gets, so an import finds them as duplicates.
describe.each(dialects)('migration 0011_imports on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('hashes every existing revision and keeps dry runs', async () => {
    const opened = await openDatabaseAt(dialect, '0010_question_bank_and_papers')
    drop = opened.drop
    // The tables as they were before this migration.
    const { database, db, insert } = opened

    const now = Date.now()
    const user = await insert('users', {
      username: 'admin',
      username_key: 'admin',
      phone_number: '9800000001',
      password_hash: 'x',
      created_at: now,
    })
    const written: { revision: number; content: Parameters<typeof contentHash>[0] }[] = []
    const question = async (
      text: { en: string; ne: string },
      options: [string, string, boolean][],
      deleted = false,
    ) => {
      const id = await insert('questions', { revision_id: null, deleted_at: deleted ? now : null })
      const revision = await insert('question_revisions', {
        question_id: id,
        text_en: text.en,
        text_ne: text.ne,
        created_at: now,
      })
      await db
        .insertInto('question_options')
        .values(
          options.map(([en, ne, correct], index) => ({
            revision_id: revision,
            position: index + 1,
            text_en: en,
            text_ne: ne,
            is_correct: correct ? 1 : 0,
          })),
        )
        .execute()
      await db.updateTable('questions').set({ revision_id: revision }).where('id', '=', id).execute()
      written.push({
        revision,
        content: { text, options: options.map(([en, ne, is_correct]) => ({ text: { en, ne }, is_correct })) },
      })
      return revision
    }
    const capital = await question({ en: 'Capital of Nepal?', ne: 'नेपालको राजधानी?' }, [
      ['Kathmandu', 'काठमाडौं', true],
      ['Pokhara', 'पोखरा', false],
    ])
    // The same question typed again: other spaces, options in another order.
    const again = await question({ en: '  Capital   of Nepal? ', ne: 'नेपालको  राजधानी?' }, [
      ['Pokhara', 'पोखरा', false],
      ['Kathmandu ', 'काठमाडौं', true],
    ])
    // Another answer marked: another question.
    const otherAnswer = await question({ en: 'Capital of Nepal?', ne: 'नेपालको राजधानी?' }, [
      ['Kathmandu', 'काठमाडौं', false],
      ['Pokhara', 'पोखरा', true],
    ])
    await question(
      { en: 'Deleted', ne: '' },
      [
        ['A', '', true],
        ['B', '', false],
      ],
      true,
    )
    // More than one batch of revisions.
    for (let n = 0; n < 520; n++)
      await question({ en: `Q${n}`, ne: '' }, [
        ['A', '', true],
        ['B', '', false],
      ])

    await migrateToLatest(database)

    const t = database.db
    const hashes = new Map(
      (await t.selectFrom('question_revisions').select(['id', 'content_hash']).execute()).map((row) => [
        row.id,
        row.content_hash,
      ]),
    )
    for (const { revision, content } of written) expect(hashes.get(revision)).toBe(contentHash(content))
    expect(hashes.get(capital)).toBe(hashes.get(again))
    expect(hashes.get(capital)).not.toBe(hashes.get(otherAnswer))
    expect([...hashes.values()].every((hash) => typeof hash === 'string' && hash.length === 64)).toBe(true)

    await t
      .insertInto('imports')
      .values({ created_by: user, format: 'csv', rows: '[]', created_at: now, expires_at: now + 1000 })
      .execute()
    expect(await t.selectFrom('imports').select(['format', 'rows']).execute()).toEqual([{ format: 'csv', rows: '[]' }])
  })
})
