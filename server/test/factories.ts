import type { Insertable, Kysely } from 'kysely'
import { hashPassword } from '../src/accounts/passwords'
import type { TokenSigner } from '../src/http/tokens'
import { insertBankQuestion, insertQuestion } from '../src/questions/question-revisions.repository'
import type { Database } from '../src/db/database'
import type { DB, QuizTable, UserRow } from '../src/db/schema'
import { FAKE_CLOCK_START } from '../src/lib/clock'
import { FIRST_INSTITUTE_ID } from '../src/db/tenancy'

let counter = 0
const next = () => ++counter

export const DEFAULT_PASSWORD = 'Correct-Horse-42'

/** A user row, its plain password and its roles in the institute it was made a member of. */
export type TestUser = UserRow & { password: string; is_admin: number; is_marker: number; institute: number }

/**
 * An account and its membership in `institute` (default the first; none for a platform admin): `is_admin` and
 * `is_marker` are the roles there (docs/decisions/096), `learner: false` a membership without the learner's role,
 * `institute: null` none at all.
 */
export async function createUser(
  database: Database,
  overrides: Partial<Insertable<DB['users']>> & {
    password?: string
    is_admin?: number
    is_marker?: number
    learner?: boolean
    institute?: number | null
    /** Paid access in `institute`: the membership's (docs/decisions/103). */
    paid_access_until?: number | null
  } = {},
): Promise<TestUser> {
  const n = next()
  const {
    password = DEFAULT_PASSWORD,
    is_admin = 0,
    is_marker = 0,
    learner = true,
    // A platform admin is of no institute (docs/decisions/097) unless the test names one.
    institute = overrides.is_platform_admin === 1 ? null : FIRST_INSTITUTE_ID,
    paid_access_until = null,
    ...fields
  } = overrides
  const username = fields.username ?? `learner${n}`
  const row = await database.db
    .insertInto('users')
    .values({
      username,
      username_key: username.toLowerCase(),
      phone_number: fields.phone_number ?? `98${String(10_000_000 + n).slice(-8)}`,
      password_hash: await hashFor(password),
      created_at: Date.now(),
      ...fields,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  if (institute !== null)
    await database.db
      .insertInto('memberships')
      .values({
        user_id: row.id,
        institute_id: institute,
        is_learner: learner ? 1 : 0,
        is_admin,
        is_marker,
        paid_access_until,
        created_at: row.created_at,
      })
      .execute()
  return { ...row, password, is_admin, is_marker, institute: institute ?? FIRST_INSTITUTE_ID }
}

/** The end of a user's paid access in an institute (default the first), as stored on the membership. */
export async function paidAccessUntil(db: Kysely<DB>, userId: number, institute: number = FIRST_INSTITUTE_ID) {
  const row = await db
    .selectFrom('memberships')
    .select('paid_access_until')
    .where('user_id', '=', userId)
    .where('institute_id', '=', institute)
    .executeTakeFirst()
  return row === undefined ? undefined : row.paid_access_until === null ? null : Number(row.paid_access_until)
}

const hashes = new Map<string, Promise<string>>()
// Hashing is slow on purpose; tests reuse one hash per distinct password.
function hashFor(password: string) {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password))
  return hashes.get(password)!
}

/** The roles a token says (requireAdmin and requireMarker read the membership itself). */
export type TokenRoles = Pick<UserRow, 'id' | 'username'> & { is_admin?: number; is_marker?: number }

export async function bearerFor(tokens: TokenSigner, user: TokenRoles & { institute_slug?: string }) {
  const access = await tokens.signAccess({
    id: user.id,
    username: user.username,
    is_admin: user.is_admin === 1,
    is_marker: user.is_marker === 1,
    ...(user.institute_slug && { institute: user.institute_slug }),
  })
  return { authorization: `Bearer ${access}` }
}

export interface QuestionSeed {
  text?: string
  options?: { text: string; is_correct: boolean }[]
}

/** A quiz with `questionCount` questions of four options each, the first correct unless `questions` says otherwise. */
export async function createQuiz(
  database: Database,
  overrides: Partial<Insertable<QuizTable>> = {},
  { questionCount = 3, questions }: { questionCount?: number; questions?: QuestionSeed[] } = {},
) {
  const now = Date.now()
  const created = await database.db
    .insertInto('quizzes')
    .values({
      title_en: `Quiz ${next()}`,
      title_ne: 'प्रश्नोत्तरी',
      // Open since the day before a FakeClock's start, not the wall clock's: a quiz made from Date.now() was in the
      // fake clock's future once the real date passed it, and every test reading the learner's list failed.
      start_time: FAKE_CLOCK_START - 24 * 3600_000,
      end_time: null,
      duration_minutes: 90,
      is_paid_tier: 0,
      allowed_attempts: 3,
      difficulty: 'medium',
      created_at: now,
      ...overrides,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const seeds: QuestionSeed[] =
    questions ?? Array.from({ length: questionCount }, (_, i) => ({ text: `Question ${i + 1}` }))
  const questionIds: number[] = []
  const correctOptionIds: number[] = []
  const wrongOptionIds: number[] = []
  for (const [index, seed] of seeds.entries()) {
    const options = seed.options ?? ['A', 'B', 'C', 'D'].map((text, i) => ({ text, is_correct: i === 0 }))
    const questionId = await insertQuestion(
      database.db,
      created.id,
      {
        text: { en: seed.text ?? `Question ${index + 1}`, ne: `प्रश्न ${index + 1}` },
        hint: { en: 'A hint', ne: '' },
        topic: 'general',
        image: null,
        options: options.map((option) => ({
          text: { en: option.text, ne: '' },
          is_correct: option.is_correct,
          image: null,
        })),
      },
      now,
    )
    const rows = await database.db
      .selectFrom('question_options')
      .innerJoin('questions', 'questions.revision_id', 'question_options.revision_id')
      .select(['question_options.id', 'question_options.is_correct'])
      .where('questions.id', '=', questionId)
      .orderBy('question_options.position')
      .execute()
    for (const row of rows) {
      if (row.is_correct === 1) correctOptionIds.push(row.id)
      else if (wrongOptionIds.length === questionIds.length) wrongOptionIds.push(row.id)
    }
    questionIds.push(questionId)
  }
  // The row as it now stands: its question count has followed the questions (migration 0007's triggers).
  const row = await database.db.selectFrom('quizzes').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
  return { quiz: row, questionIds, correctOptionIds, wrongOptionIds }
}

/** `count` bank questions on `topic` in no paper (each: "Right" correct, "Wrong" not); returns their ids in order. */
export async function createBankQuestions(db: Kysely<DB>, topic: string, count: number, now: number) {
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    ids.push(
      await insertBankQuestion(
        db,
        {
          text: { en: `${topic} ${i}`, ne: '' },
          hint: null,
          topic,
          image: null,
          options: [
            { text: { en: 'Right', ne: '' }, is_correct: true, image: null },
            { text: { en: 'Wrong', ne: '' }, is_correct: false, image: null },
          ],
        },
        now,
      ),
    )
  }
  return ids
}
