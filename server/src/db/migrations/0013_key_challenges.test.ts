import { sql } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt, refused } from '../../../test/migration-database'
import { listAttemptsHoldingRevision } from '../../challenges/challenges.repository'
import { findAnswerKeys } from '../../questions/answer-keys'
import { isUniqueViolation } from '../errors'
import type { Database } from '../database'
import { migrateToLatest } from '../migrate'

/** The indexes a table has, by name (constraints' own indexes included). */
async function indexesOf({ db, dialect }: Database, table: string) {
  const rows =
    dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = ${table}`.execute(db)
      : await sql<{
          name: string
        }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db)
  return rows.rows.map((row) => row.name)
}

// A database an older server left: a quiz with two questions (one edited, so with two revisions), learners'
// finished attempts scored on the written key, one attempt in progress. After the upgrade nothing is decided:
// every revision is at key version 0, every quiz has the 7-day challenge window, the old attempts are found by a
// decision's search and keep their scores; the new tables hold what they promise and refuse what they must.
describe.each(dialects)('migration 0013_key_challenges on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('starts every revision at key version 0 and every quiz at a 7-day challenge window', async () => {
    const opened = await openDatabaseAt(dialect, '0012_notifications')
    drop = opened.drop
    // The tables as they were before this migration.
    const { database, db, insert } = opened

    const now = Date.now()
    const userOf = (name: string) =>
      insert('users', {
        username: name,
        username_key: name,
        phone_number: `98000000${name.length}${name.charCodeAt(0) % 10}`,
        password_hash: 'x',
        created_at: now,
      })
    const quiz = await insert('quizzes', {
      title_en: 'Old quiz',
      title_ne: '',
      start_time: now - 86_400_000,
      end_time: null,
      duration_minutes: 10,
      is_paid_tier: 0,
      allowed_attempts: 3,
      difficulty: 'easy',
      created_at: now,
      deleted_at: null,
    })
    const revisionOf = async (question: number, text: string) => {
      const revision = await insert('question_revisions', {
        question_id: question,
        text_en: text,
        created_at: now,
      })
      const options: number[] = []
      for (const [index, label] of ['A', 'B'].entries())
        options.push(
          await insert('question_options', {
            revision_id: revision,
            position: index + 1,
            text_en: label,
            is_correct: index === 0 ? 1 : 0,
          }),
        )
      await db.updateTable('questions').set({ revision_id: revision }).where('id', '=', question).execute()
      return { revision, options }
    }
    const first = await insert('questions', { revision_id: null, deleted_at: null })
    const second = await insert('questions', { revision_id: null, deleted_at: null })
    const edited = await revisionOf(first, 'Q1, as first written')
    const current = await revisionOf(first, 'Q1, edited')
    const other = await revisionOf(second, 'Q2')
    const sectionId = await insert('paper_sections', {
      quiz_id: quiz,
      position: 1,
      title_en: '',
      title_ne: '',
      marks_correct: 100,
      marks_wrong: 20,
      time_limit_minutes: null,
    })
    for (const [position, question] of [first, second].entries())
      await insert('paper_items', {
        quiz_id: quiz,
        section_id: sectionId,
        position: position + 1,
        question_id: question,
      })

    // A learner finished on the first revision (right on both), another on the edited one (wrong on Q1), a third
    // is still answering.
    const attempt = async (user: number, revisions: number[], status: 'finished' | 'in_progress', score: number) =>
      insert('attempts', {
        user_id: user,
        quiz_id: quiz,
        attempt_number: 1,
        status,
        started_at: now - 5000,
        deadline: now + 600_000,
        revision_ids: JSON.stringify(revisions),
        finished_at: status === 'finished' ? now : null,
        score_hundredths: status === 'finished' ? score : null,
        correct: status === 'finished' ? (score === 200 ? 2 : 1) : null,
        incorrect: status === 'finished' ? (score === 200 ? 0 : 1) : null,
        unanswered: status === 'finished' ? 0 : null,
      })
    const ram = await userOf('ram')
    const sita = await userOf('sita')
    const hari = await userOf('hari')
    const early = await attempt(ram, [edited.revision, other.revision], 'finished', 200)
    const late = await attempt(sita, [current.revision, other.revision], 'finished', 80)
    await attempt(hari, [current.revision, other.revision], 'in_progress', 0)
    for (const [attemptId, option] of [
      [early, edited.options[0]],
      [late, current.options[1]],
    ] as const)
      await db
        .insertInto('attempt_answers')
        .values({ attempt_id: attemptId, question_id: first, option_id: option, saved_at: now })
        .execute()
    const scores = async () =>
      (await db.selectFrom('attempts').select(['id', 'status', 'score_hundredths']).orderBy('id').execute()).map(
        (row) => [Number(row.id), row.status, row.score_hundredths === null ? null : Number(row.score_hundredths)],
      )
    const before = await scores()

    await migrateToLatest(database)

    const t = database.db
    // Backfilled by the columns' defaults, and the defaults of rows written afterwards.
    expect(await t.selectFrom('quizzes').select('challenge_days').execute()).toEqual([{ challenge_days: 7 }])
    const keyVersions = await t.selectFrom('question_revisions').select(['id', 'key_version']).orderBy('id').execute()
    expect(keyVersions).toEqual(
      [edited.revision, current.revision, other.revision].map((id) => ({ id, key_version: 0 })),
    )
    const added = await t
      .insertInto('quizzes')
      .values({
        title_en: 'New quiz',
        title_ne: '',
        start_time: now,
        end_time: null,
        duration_minutes: 10,
        is_paid_tier: 0,
        allowed_attempts: 1,
        difficulty: 'easy',
        created_at: now,
        deleted_at: null,
      })
      .returning('challenge_days')
      .executeTakeFirstOrThrow()
    expect(added.challenge_days).toBe(7)

    // Nothing is decided: every revision scores on its written key, and no stored score moved.
    expect((await findAnswerKeys(t, [edited.revision, current.revision, other.revision])).size).toBe(0)
    expect(await scores()).toEqual(before)
    // A decision's search finds the finished attempts the older server wrote, each with its answer, and only them
    // (not the one in progress: it will be scored on the key current when it finishes).
    const holding = await listAttemptsHoldingRevision(t, dialect, current.revision, first)
    expect(holding.map((row) => [row.id, row.option_id, row.score_hundredths])).toEqual([
      [late, current.options[1], 80],
    ])
    expect((await listAttemptsHoldingRevision(t, dialect, other.revision, second)).map((row) => row.id)).toEqual([
      early,
      late,
    ])

    // key_versions: one row per revision and version; it belongs to an existing revision.
    const admin = await userOf('admin')
    const version = (revisionId: number, n: number) =>
      t
        .insertInto('key_versions')
        .values({
          revision_id: revisionId,
          question_id: first,
          version: n,
          action: 'change',
          correct_option_ids: JSON.stringify([current.options[1]]),
          drop_policy: null,
          note: 'B is right',
          actor_id: admin,
          actor_username: 'admin',
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    const decided = await version(current.revision, 1)
    expect(isUniqueViolation(await refused(version(current.revision, 1)))).toBe(true)
    await version(current.revision, 2)
    await refused(version(999_999, 1))

    // flags: an open flag with an empty note unless told; one per learner and revision.
    const flag = (userId: number, attemptId: number, revisionId: number) =>
      t
        .insertInto('flags')
        .values({
          attempt_id: attemptId,
          user_id: userId,
          question_id: first,
          revision_id: revisionId,
          reason: 'wrong_key',
          proposed_option_id: null,
          created_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    const flagged = await flag(sita, late, current.revision)
    expect([flagged.status, flagged.note, flagged.decided_at, flagged.decision]).toEqual(['open', '', null, null])
    expect(isUniqueViolation(await refused(flag(sita, late, current.revision)))).toBe(true)
    await flag(ram, early, edited.revision)

    // regrades: the change of one attempt's marks by one key version.
    await t
      .insertInto('regrades')
      .values({
        attempt_id: late,
        question_id: first,
        revision_id: current.revision,
        old_marks: -20,
        new_marks: 100,
        old_outcome: 'incorrect',
        new_outcome: 'correct',
        key_version_id: decided.id,
        actor_id: admin,
        created_at: now,
      })
      .execute()

    // The indexes the queue, the flag checks and the report card's regrade read by.
    expect(await indexesOf(database, 'flags')).toEqual(
      expect.arrayContaining(['flags_revision_status', 'flags_status_created']),
    )
    expect(await indexesOf(database, 'regrades')).toEqual(
      expect.arrayContaining(['regrades_attempt', 'regrades_key_version']),
    )

    // A learner's attempt deleted takes its flags and regrades with it (an account's removal).
    await t.deleteFrom('attempts').where('id', '=', late).execute()
    expect(await t.selectFrom('flags').select('attempt_id').execute()).toEqual([{ attempt_id: early }])
    expect(await t.selectFrom('regrades').select('id').execute()).toEqual([])
    if (dialect === 'sqlite') expect((await sql`pragma foreign_key_check`.execute(t)).rows).toEqual([])
  })
})
