import type { Kysely, Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// API.md "Institutes", the budget: with 1,000 institutes in one database, a learner's results list and an admin's
// attempts table read attempts by an index led by the institute (docs/decisions/104). Both queries carry
// `institute_id = ?` (the filter of decision 095, and on PostgreSQL the row-security policy of decision 098), then
// the learner or the quiz; the older indexes led by user_id or quiz_id stay, for a lone institute's queries on
// SQLite, which carry no institute at all (decision 076).
export const instituteIndexes = (): Migration => ({
  async up(db: Kysely<unknown>) {
    // results/results.repository.ts finishedAttemptsOf: user_id and status = 'finished', ordered by quiz and number.
    // quiz_id before status: the learner's list of quizzes counts the learner's attempts at each quiz, and with
    // status second PostgreSQL counted them through attempts_institute_quiz, reading every learner's (200 a quiz).
    await db.schema
      .createIndex('attempts_institute_user')
      .on('attempts')
      .columns(['institute_id', 'user_id', 'quiz_id', 'status', 'attempt_number'])
      .execute()
    // institutions/reports.repository.ts chosenAttempts: quiz_id and status = 'finished', ordered by score.
    await db.schema
      .createIndex('attempts_institute_quiz')
      .on('attempts')
      .columns(['institute_id', 'quiz_id', 'status', 'score_hundredths'])
      .execute()
    // quizzes/quizzes.repository.ts, a learner's list: the institute's quizzes, newest first. Without it PostgreSQL
    // read every institute's quizzes for each list (docs/performance.md, bench:institutes).
    await db.schema
      .createIndex('quizzes_institute_start')
      .on('quizzes')
      .columns(['institute_id', 'start_time', 'id'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('quizzes_institute_start').execute()
    await db.schema.dropIndex('attempts_institute_quiz').execute()
    await db.schema.dropIndex('attempts_institute_user').execute()
  },
})
