// npm run bench:key-change: API.md "Answer-key challenges" budget. BENCH_KEY_ATTEMPTS (default 10,000) finished
// attempts, one learner each, hold one question of a BENCH_QUESTIONS-question paper (default 50); an admin's key
// change on that question is timed as a dry run and as its commit (each under 5 s), on SQLite (a file, as
// served) and, when DATABASE_URL names a PostgreSQL server, on a fresh database there. It calls the service the
// route calls, so the figures are the re-grade's own, without HTTP. Attempts are seeded with SQL in chunks.
import { migrateToLatest } from '../server/src/db/migrate.ts'
import { insertQuestion } from '../server/src/questions/question-revisions.repository.ts'
import { createKeyDecisionService } from '../server/src/challenges/key-decision.service.ts'
import { onBothDatabases } from './both-databases.mjs'

const attempts = Number(process.env.BENCH_KEY_ATTEMPTS ?? 10_000)
const questionCount = Number(process.env.BENCH_QUESTIONS ?? 50)
const BUDGET_MS = 5_000
const CHUNK = 500

async function seed(database) {
  const { db } = database
  const now = Date.now()
  const quiz = await db
    .insertInto('quizzes')
    .values({
      title_en: 'Key change bench',
      title_ne: '',
      start_time: now - 86_400_000,
      end_time: null,
      duration_minutes: 90,
      is_paid_tier: 0,
      allowed_attempts: 3,
      difficulty: 'medium',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const questionIds = []
  for (let i = 0; i < questionCount; i++) {
    const options = ['A', 'B', 'C', 'D'].map((text, index) => ({
      text: { en: text, ne: '' },
      is_correct: index === 0,
      image: null,
    }))
    const content = { text: { en: `Question ${i + 1}`, ne: '' }, hint: null, topic: 'bench', image: null, options }
    questionIds.push(await insertQuestion(db, quiz.id, content, now))
  }
  const revisions = await db
    .selectFrom('questions')
    .select(['id', 'revision_id'])
    .where('id', 'in', questionIds)
    .execute()
  const revisionOf = new Map(revisions.map((row) => [row.id, row.revision_id]))
  const revisionIds = JSON.stringify(questionIds.map((id) => revisionOf.get(id)))
  const target = questionIds[0]
  const options = await db
    .selectFrom('question_options')
    .select('id')
    .where('revision_id', '=', revisionOf.get(target))
    .orderBy('position')
    .execute()
  const optionIds = options.map((row) => row.id)
  const tally = new Map()
  for (let start = 0; start < attempts; start += CHUNK) {
    const size = Math.min(CHUNK, attempts - start)
    const users = await db
      .insertInto('users')
      .values(
        Array.from({ length: size }, (_, i) => ({
          username: `bench${start + i}`,
          username_key: `bench${start + i}`,
          phone_number: `97${String(start + i).padStart(8, '0')}`,
          password_hash: 'x',
          created_at: now,
        })),
      )
      .returning('id')
      .execute()
    const rows = users.map((user, i) => {
      const n = start + i
      const chosen = n % 5 === 4 ? null : optionIds[n % 4]
      const rest = (n * 37) % (questionCount - 1) // right answers among the other questions
      const score = rest * 100 + (chosen === null ? 0 : chosen === optionIds[0] ? 100 : -20)
      tally.set(score, (tally.get(score) ?? 0) + 1)
      return {
        attempt: {
          user_id: user.id,
          quiz_id: quiz.id,
          attempt_number: 1,
          status: 'finished',
          started_at: now - 3_600_000,
          deadline: now,
          revision_ids: revisionIds,
          finished_at: now - 60_000,
          score_hundredths: score,
          correct: rest + (chosen === optionIds[0] ? 1 : 0),
          incorrect: chosen !== null && chosen !== optionIds[0] ? 1 : 0,
          unanswered: questionCount - rest - (chosen === null ? 0 : 1),
          submitted: 1,
        },
        chosen,
      }
    })
    const inserted = await db
      .insertInto('attempts')
      .values(rows.map((row) => row.attempt))
      .returning('id')
      .execute()
    const answers = inserted
      .map((attempt, i) => ({ attempt_id: attempt.id, question_id: target, option_id: rows[i].chosen, saved_at: now }))
      .filter((answer) => answer.option_id !== null)
    if (answers.length > 0) await db.insertInto('attempt_answers').values(answers).execute()
  }
  await db
    .insertInto('first_attempt_scores')
    .values([...tally].map(([score, learners]) => ({ quiz_id: quiz.id, score_hundredths: score, learners })))
    .execute()
  const admin = await db
    .insertInto('users')
    .values({
      username: 'bench-admin',
      username_key: 'bench-admin',
      phone_number: '9600000000',
      password_hash: 'x',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  // The admin role is a membership's (docs/decisions/096).
  await db
    .insertInto('memberships')
    .values({ user_id: admin.id, institute_id: 1, is_admin: 1, created_at: now })
    .execute()
  return { target, revisionId: revisionOf.get(target), optionIds, adminId: admin.id }
}

async function measure(label, database) {
  await migrateToLatest(database)
  let started = performance.now()
  const { target, revisionId, optionIds, adminId } = await seed(database)
  const seedMs = performance.now() - started
  const service = createKeyDecisionService({ database, clock: { now: () => Date.now() } })
  const actor = { id: adminId, username: 'bench-admin', address: null }
  const body = (dry_run) => ({
    revision_id: revisionId,
    action: 'change',
    correct_option_ids: [optionIds[1]],
    note: 'Bench',
    dry_run,
  })
  started = performance.now()
  const dry = await service.decide(actor, target, body(true))
  const dryMs = performance.now() - started
  started = performance.now()
  const commit = await service.decide(actor, target, body(false))
  const commitMs = performance.now() - started
  const ok = (ms) => (ms < BUDGET_MS ? 'ok' : 'OVER BUDGET')
  console.log(
    `${label}: ${attempts} attempts (seeded in ${(seedMs / 1000).toFixed(1)} s), ${commit.attempts_affected} re-scored: ` +
      `dry run ${dryMs.toFixed(0)} ms (${ok(dryMs)}), commit ${commitMs.toFixed(0)} ms (${ok(commitMs)})`,
  )
  if (dry.attempts_affected !== commit.attempts_affected) throw new Error('the dry run and the commit disagree')
  return dryMs < BUDGET_MS && commitMs < BUDGET_MS
}

const within = await onBothDatabases('key-change', measure)

process.exitCode = within ? 0 : 1
