import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// A database an older server left: two quizzes owning their questions (live, deleted, one without a revision),
// an attempt, a practice card. After the upgrade every question is a bank question with the same id, every quiz a
// one-section paper (+1 / -0.2, untimed) of its live questions in their order, and the figures are unchanged.
describe.each(dialects)('migration 0010_question_bank_and_papers on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('makes every question a bank question and every quiz a one-section paper', async () => {
    const opened = await openDatabaseAt(dialect, '0008_option_ids_apart_from_order')
    drop = opened.drop
    // The tables as they were before this migration.
    const { database, db, insert } = opened

    const now = Date.now()
    const user = await insert('users', {
      username: 'u',
      username_key: 'u',
      phone_number: '9800000001',
      password_hash: 'x',
      created_at: now,
    })
    const quizOf = (title: string) =>
      insert('quizzes', {
        title_en: title,
        title_ne: '',
        start_time: now,
        end_time: null,
        duration_minutes: 10,
        is_paid_tier: 0,
        allowed_attempts: 3,
        difficulty: 'easy',
        created_at: now,
        deleted_at: null,
      })
    const quizzes = [await quizOf('First'), await quizOf('Second')]
    // Positions out of id order, to show the paper keeps the quiz's order.
    const plan = [
      { quiz: 0, position: 3, live: true },
      { quiz: 0, position: 1, live: true },
      { quiz: 0, position: 2, live: false },
      { quiz: 1, position: 1, live: true },
      { quiz: 1, position: 2, live: true },
    ]
    const questionIds: number[] = []
    const revisionIds: number[] = []
    for (const [n, item] of plan.entries()) {
      const question = await insert('questions', {
        quiz_id: quizzes[item.quiz],
        position: item.position,
        revision_id: null,
        deleted_at: item.live ? null : now,
      })
      const revision = await insert('question_revisions', {
        question_id: question,
        text_en: `Q${n}`,
        created_at: now,
      })
      await db
        .insertInto('question_options')
        .values([
          { revision_id: revision, position: 1, text_en: 'A', is_correct: 1 },
          { revision_id: revision, position: 2, text_en: 'B', is_correct: 0 },
        ])
        .execute()
      await db.updateTable('questions').set({ revision_id: revision }).where('id', '=', question).execute()
      questionIds.push(question)
      revisionIds.push(revision)
    }
    // A question being written (no revision yet) is no item of any paper.
    const unfinished = await insert('questions', {
      quiz_id: quizzes[1],
      position: 3,
      revision_id: null,
      deleted_at: null,
    })
    await insert('attempts', {
      user_id: user,
      quiz_id: quizzes[0],
      attempt_number: 1,
      status: 'finished',
      started_at: now - 5000,
      deadline: now,
      revision_ids: JSON.stringify([revisionIds[1], revisionIds[0]]),
      finished_at: now,
      score_hundredths: 100,
      correct: 1,
      incorrect: 0,
      unanswered: 1,
    })
    await db
      .insertInto('practice_cards')
      .values({ user_id: user, question_id: questionIds[0], box: 1, due_at: now, updated_at: now })
      .execute()
    const figures = async () =>
      (await db.selectFrom('quizzes').select(['id', 'question_count']).orderBy('id').execute()).map((row) => [
        Number(row.id),
        Number(row.question_count),
      ])
    const before = await figures()
    expect(before).toEqual([
      [quizzes[0], 2],
      [quizzes[1], 2],
    ])

    await migrateToLatest(database)

    const t = database.db
    const questions = await t.selectFrom('questions').selectAll().orderBy('id').execute()
    expect(questions.map((q) => q.id)).toEqual([...questionIds, unfinished])
    expect(questions.every((q) => q.difficulty === null && q.source === null)).toBe(true)
    const sections = await t.selectFrom('paper_sections').selectAll().orderBy('quiz_id').execute()
    expect(sections.map((s) => [s.quiz_id, s.position, s.marks_correct, s.marks_wrong, s.time_limit_minutes])).toEqual([
      [quizzes[0], 1, 100, 20, null],
      [quizzes[1], 1, 100, 20, null],
    ])
    const items = await t.selectFrom('paper_items').selectAll().orderBy('quiz_id').orderBy('position').execute()
    expect(items.map((i) => [i.quiz_id, i.question_id, i.draw_count])).toEqual([
      [quizzes[0], questionIds[1], null],
      [quizzes[0], questionIds[0], null],
      [quizzes[1], questionIds[3], null],
      [quizzes[1], questionIds[4], null],
    ])
    expect(await figures()).toEqual(before)
    const quiz = await t.selectFrom('quizzes').selectAll().where('id', '=', quizzes[0]!).executeTakeFirstOrThrow()
    expect(quiz.draw_mode).toBe('per_attempt')
    expect(quiz.frozen_draw).toBeNull()
    // What the learner was shown counts as shown for draws; the card remembers its quiz.
    expect(
      (await t.selectFrom('question_shows').selectAll().orderBy('question_id').execute()).map((row) => [
        row.user_id,
        row.question_id,
        Number(row.shown_at),
      ]),
    ).toEqual([
      [user, questionIds[0], now - 5000],
      [user, questionIds[1], now - 5000],
    ])
    expect((await t.selectFrom('practice_cards').select('quiz_id').executeTakeFirstOrThrow()).quiz_id).toBe(quizzes[0])

    // The figures follow the paper from now on, and a new bank question gets an id of its own.
    const added = await t
      .insertInto('questions')
      .values({ revision_id: revisionIds[2]!, deleted_at: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(added.id).toBeGreaterThan(unfinished)
    await t
      .insertInto('paper_items')
      .values({
        quiz_id: quizzes[1]!,
        section_id: sections[1]!.id,
        position: 3,
        question_id: added.id,
        draw_topic: null,
        draw_tags: null,
        draw_difficulty: null,
        draw_source: null,
        draw_count: null,
      })
      .execute()
    expect(await figures()).toEqual([
      [quizzes[0], 2],
      [quizzes[1], 3],
    ])
    // Foreign keys hold after SQLite's rebuild of the table.
    if (dialect === 'sqlite') expect((await sql`pragma foreign_key_check`.execute(t)).rows).toEqual([])
  })
})
