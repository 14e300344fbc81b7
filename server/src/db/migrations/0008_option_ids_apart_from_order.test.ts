import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openEmptyDatabase } from '../../../test/migration-database'
import { migrateToLatest, migrateUpTo } from '../migrate'

const REVISIONS = 30
const OPTIONS = ['A', 'B', 'C', 'D']

// A database an older server left: options numbered in authored order (the right one first), attempts with answers
// and drawn option orders, a practice card. After the upgrade every option has a new id, in no authored order, and
// each answer and drawn order names the same options as before.
describe.each(dialects)('migration 0008_option_ids_apart_from_order on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('re-keys every option, and the answers and drawn orders that name them', async () => {
    const opened = await openEmptyDatabase(dialect)
    drop = opened.drop
    const { database } = opened
    const { db } = database
    await migrateUpTo(database, '0007_question_count')

    const now = Date.now()
    const user = await db
      .insertInto('users')
      .values({ username: 'u', username_key: 'u', phone_number: '9800000001', password_hash: 'x', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow()
    const quiz = await db
      .insertInto('quizzes')
      .values({
        title_en: 'Old quiz',
        title_ne: '',
        start_time: now,
        end_time: null,
        duration_minutes: 10,
        is_paid_tier: 0,
        allowed_attempts: 3,
        difficulty: 'easy',
        created_at: now,
        deleted_at: null,
        shuffle_options: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const revisionIds: number[] = []
    const questionIds: number[] = []
    for (let n = 1; n <= REVISIONS; n++) {
      const question = await db
        .insertInto('questions')
        // @ts-expect-error quiz_id and position are the columns of the time before migration 0010
        .values({ quiz_id: quiz.id, position: n, revision_id: null, deleted_at: null })
        .returning('id')
        .executeTakeFirstOrThrow()
      const revision = await db
        .insertInto('question_revisions')
        .values({
          question_id: question.id,
          text_en: `Q${n}`,
          text_ne: '',
          hint_en: null,
          hint_ne: '',
          topic: '',
          image_svg: null,
          image_caption_en: '',
          image_caption_ne: '',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db
        .insertInto('question_options')
        .values(
          OPTIONS.map((letter, i) => ({
            revision_id: revision.id,
            position: i + 1,
            text_en: `Q${n}${letter}`,
            text_ne: '',
            is_correct: i === 0 ? 1 : 0,
            image_svg: null,
            image_caption_en: '',
            image_caption_ne: '',
          })),
        )
        .execute()
      await db.updateTable('questions').set({ revision_id: revision.id }).where('id', '=', question.id).execute()
      revisionIds.push(revision.id)
      questionIds.push(question.id)
    }
    const textOf = async () =>
      new Map(
        (await db.selectFrom('question_options').select(['id', 'text_en']).execute()).map((o) => [o.id, o.text_en]),
      )
    const before = await textOf()
    const oldIds = [...before.keys()]
    const idOf = new Map([...before].map(([id, text]) => [text, id]))

    // One attempt shows the options in an order of its own and answered the first two questions (B, then none).
    const drawn = revisionIds.map((_, n) => ['D', 'B', 'A', 'C'].map((letter) => idOf.get(`Q${n + 1}${letter}`)!))
    const attempt = await db
      .insertInto('attempts')
      .values({
        user_id: user.id,
        quiz_id: quiz.id,
        attempt_number: 1,
        status: 'finished',
        started_at: now,
        deadline: now + 600_000,
        revision_ids: JSON.stringify(revisionIds),
        option_order: JSON.stringify(drawn),
        finished_at: now,
        score_hundredths: 0,
        correct: 0,
        incorrect: 1,
        unanswered: REVISIONS - 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .insertInto('attempt_answers')
      .values([
        { attempt_id: attempt.id, question_id: questionIds[0]!, option_id: idOf.get('Q1B')!, saved_at: now },
        { attempt_id: attempt.id, question_id: questionIds[1]!, option_id: null, saved_at: now },
      ])
      .execute()
    await db
      .insertInto('practice_cards')
      .values({ user_id: user.id, question_id: questionIds[0]!, box: 1, due_at: now, updated_at: now })
      .execute()

    await migrateToLatest(database)

    const after = await textOf()
    // The same options, each under a new id above every old one.
    expect([...after.values()].sort()).toEqual([...before.values()].sort())
    for (const id of after.keys()) expect(id).toBeGreaterThan(Math.max(...oldIds))
    const newIdOf = new Map([...after].map(([id, text]) => [text, id]))
    // Authored order and the right answer stay with position; the ids no longer follow it.
    const options = await db
      .selectFrom('question_options')
      .selectAll()
      .orderBy('revision_id')
      .orderBy('position')
      .execute()
    expect(options.filter((o) => o.position === 1).every((o) => o.is_correct === 1 && o.text_en.endsWith('A'))).toBe(
      true,
    )
    const idsByRevision = revisionIds.map((id) => options.filter((o) => o.revision_id === id).map((o) => o.id))
    expect(idsByRevision.every((ids) => ids.every((id, i) => i === 0 || id > ids[i - 1]!))).toBe(false)

    const answers = await db.selectFrom('attempt_answers').selectAll().orderBy('question_id').execute()
    expect(answers.map((a) => (a.option_id === null ? null : after.get(a.option_id)))).toEqual(['Q1B', null])
    const row = await db.selectFrom('attempts').select('option_order').executeTakeFirstOrThrow()
    expect(JSON.parse(row.option_order!)).toEqual(
      revisionIds.map((_, n) => ['D', 'B', 'A', 'C'].map((letter) => newIdOf.get(`Q${n + 1}${letter}`))),
    )
    expect(await db.selectFrom('practice_cards').select(['question_id', 'box']).execute()).toEqual([
      { question_id: questionIds[0], box: 1 },
    ])
    // A new option after the upgrade gets an id of its own (PostgreSQL's sequence moved past the new ids).
    const added = await db
      .insertInto('question_options')
      .values({
        revision_id: revisionIds[0]!,
        position: 5,
        text_en: 'Q1E',
        text_ne: '',
        is_correct: 0,
        image_svg: null,
        image_caption_en: '',
        image_caption_ne: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(added.id).toBeGreaterThan(Math.max(...after.keys()))
  })
})
