import { liveMessages } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import type { Insertable } from 'kysely'
import type { QuizTable, UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { insertSitting, recordPaperAttempt, withLifecycle } from '../../test/fixtures/paper-attempts'
import { openQuiz, requestsAs, storedAttempts, storedOptionIds } from '../../test/learner-api'
import { answersByLetter } from '../../test/live-mock'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000
const GRACE = 120_000
const DAY = 24 * 60 * MINUTE

interface Report {
  key_withheld: string | null
  key_withheld_until: string | null
  analysis: { topics: unknown[] }
  sections: unknown[]
  questions: { hint: unknown; options: { is_correct: boolean }[] }[]
}
const keyShown = (report: Report) =>
  report.questions.some((question) => question.hint !== null || question.options.some((option) => option.is_correct))

// Issue 54: no figure that tells a withheld key (topics of progress, sections, practice, flags) before it is out.
describe.each(dialects)('figures of a withheld key on %s', (dialect) => {
  const app = withLifecycle()
  const t = useTestApp(dialect, {}, app)
  const call = requestsAs(t)

  /** Three questions (A right), one topic each, as imports often make them; `overrides` say what quiz it is. */
  async function quizOfThree(overrides: Partial<Insertable<QuizTable>>) {
    const made = await openQuiz(t, overrides, { questionCount: 3 })
    for (const [index, questionId] of made.questionIds.entries())
      await t.db
        .updateTable('question_revisions')
        .set({ topic: ['Algebra', 'Botany', 'Chemistry'][index]! })
        .where('question_id', '=', questionId)
        .execute()
    const options = await Promise.all(made.questionIds.map((id) => storedOptionIds(t.db, id)))
    const answers = answersByLetter(made.questionIds, options)
    const id = made.quiz.id
    return {
      ...made,
      id,
      answers,
      report: async (user: UserRow) => {
        const [attempt] = await storedAttempts(t.db, user.id, id)
        return (await call(user, 'GET', `/api/results/${attempt!.id}/`)).body as Report
      },
      flag: async (user: UserRow, question: number) => {
        const [attempt] = await storedAttempts(t.db, user.id, id)
        return call(user, 'POST', `/api/results/${attempt!.id}/flags/`, {
          question_id: made.questionIds[question],
          reason: 'wrong_key',
        })
      },
    }
  }

  /** A section of the first question alone, then one of the other two. */
  async function oneQuestionSectionFirst(quizId: number, questionIds: readonly number[]) {
    const second = await t.db
      .insertInto('paper_sections')
      .values({ quiz_id: quizId, position: 2, title_en: 'Rest', marks_correct: 100, marks_wrong: 20 })
      .returning('id')
      .executeTakeFirstOrThrow()
    await t.db
      .updateTable('paper_items')
      .set({ section_id: second.id })
      .where('question_id', 'in', questionIds.slice(1))
      .execute()
  }

  const topics = async (user: UserRow) =>
    ((await call(user, 'GET', '/api/results/progress/')).body.topics as { topic: string }[]).map((row) => row.topic)
  const deck = async (user: UserRow) =>
    ((await call(user, 'GET', '/api/practice/')).body.cards as { question: { id: number } }[]).map(
      (card) => card.question.id,
    )

  it("keeps a live mock's early submitter's topics, sections and flags back until everyone has finished", async () => {
    const startsAt = t.clock.now() + 10 * MINUTE
    const mock = await quizOfThree({
      live_starts_at: startsAt,
      live_join_minutes: 5,
      duration_minutes: 30,
      draw_mode: 'frozen',
    })
    await oneQuestionSectionFirst(mock.id, mock.questionIds)
    const ends = startsAt + 30 * MINUTE
    const [early, sitting] = [await createUser(t.database), await createUser(t.database)]
    // An ordinary quiz sat before: its topic is the early submitter's own and stays in progress throughout.
    const ordinary = await openQuiz(t, {}, { questionCount: 1 })
    await call(early, 'POST', `/api/quizzes/${ordinary.quiz.id}/submit/`, {
      answers: { [ordinary.questionIds[0]!]: ordinary.correctOptionIds[0] },
    })

    t.clock.set(startsAt)
    await call(early, 'GET', `/api/quizzes/${mock.id}/`)
    await call(sitting, 'GET', `/api/quizzes/${mock.id}/`)
    const submitted = await call(early, 'POST', `/api/quizzes/${mock.id}/submit/`, { answers: mock.answers('AB-') })
    expect(submitted.status).toBe(200)
    // Their own totals stay (decision 042); the first section, of one question, would say it was right.
    expect(submitted.body).toMatchObject({ score: 0.8, correct: 1, incorrect: 1, sections: [] })
    const report = await mock.report(early)
    expect(report).toMatchObject({ key_withheld: 'live', sections: [], analysis: { topics: [] } })
    expect(keyShown(report)).toBe(false)
    expect(await topics(early)).toEqual(['general'])
    const refused = await mock.flag(early, 1)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('challenge_not_open')

    // Past the common end plus grace nobody sits: everything is out, and the flag is taken.
    t.clock.set(ends + GRACE + 1)
    expect(await topics(early)).toEqual(['Algebra', 'Botany', 'Chemistry', 'general'])
    const open = await mock.report(early)
    expect(open).toMatchObject({ key_withheld: null, key_withheld_until: null })
    expect(open.sections).toMatchObject([
      { score: 1, correct: 1, incorrect: 0, unanswered: 0 },
      { score: -0.2, correct: 0, incorrect: 1, unanswered: 1 },
    ])
    expect((await mock.flag(early, 1)).status).toBe(201)
  })

  it("refuses a live mock's practice starts (a start, a submit with none, can_start) while an extra-time learner sits", async () => {
    const startsAt = t.clock.now() + 10 * MINUTE
    const mock = await quizOfThree({
      live_starts_at: startsAt,
      live_join_minutes: 5,
      duration_minutes: 30,
      draw_mode: 'frozen',
    })
    const ends = startsAt + 30 * MINUTE
    const [early, missed] = [await createUser(t.database), await createUser(t.database)]
    const slow = await createUser(t.database, { extra_time_percent: 100 })
    const slowDeadline = startsAt + 60 * MINUTE
    const start = (user: UserRow) => call(user, 'GET', `/api/quizzes/${mock.id}/`)
    const submit = (user: UserRow) =>
      call(user, 'POST', `/api/quizzes/${mock.id}/submit/`, { answers: mock.answers('AAA') })
    const canStart = async (user: UserRow) =>
      ((await call(user, 'GET', '/api/quizzes/')).body as { id: number; can_start: boolean }[]).find(
        (quiz) => quiz.id === mock.id,
      )!.can_start

    t.clock.set(startsAt)
    await start(early)
    await start(slow)
    expect((await submit(early)).status).toBe(200)

    // In the grace after the common end (decided with no query), and past it while slow still sits: each practice
    // score would tell the key. The one who sat it with attempts left and the one who missed it are refused alike.
    for (const now of [ends, ends + GRACE + 1, slowDeadline + GRACE]) {
      t.clock.set(now)
      for (const learner of [early, missed]) {
        const started = await start(learner)
        expect(started.status).toBe(409)
        expect(started.body).toEqual({ detail: liveMessages.practiceNotOpen, code: 'practice_not_open' })
        const submitted = await submit(learner)
        expect(submitted.status).toBe(409)
        expect(submitted.body.code).toBe('practice_not_open')
        expect(await canStart(learner)).toBe(false)
      }
    }
    expect(await storedAttempts(t.db, early.id, mock.id)).toHaveLength(1)
    expect(await storedAttempts(t.db, missed.id, mock.id)).toEqual([])
    expect(await canStart(slow)).toBe(true)

    // Slow's time and grace are over: the key is out, and practice opens.
    t.clock.set(slowDeadline + GRACE + 1)
    expect(await canStart(early)).toBe(true)
    const practice = await start(early)
    expect(practice.status).toBe(200)
    expect(practice.body.attempt.ranked).toBe(false)
    expect((await submit(missed)).body).toMatchObject({ score: 3, ranked: false })
  })

  it('keeps the key of a paper sitting of a draft from its learners until the quiz is published', async () => {
    const draft = await quizOfThree({ status: 'draft' })
    const learner = await createUser(t.database)
    const sitting = await insertSitting(t, draft.id, t.clock.now() - 30 * MINUTE)
    await recordPaperAttempt(app.kept.lifecycle, sitting, {
      userId: learner.id,
      quizId: draft.id,
      answers: draft.answers('AB-'),
      now: t.clock.now(),
    })

    const report = await draft.report(learner)
    expect(report).toMatchObject({ key_withheld: 'unpublished', key_withheld_until: null, sections: [] })
    expect(report.analysis.topics).toEqual([])
    expect(keyShown(report)).toBe(false)
    expect(await topics(learner)).toEqual([])
    expect(await deck(learner)).toEqual([])
    const practised = await call(learner, 'POST', `/api/practice/${draft.questionIds[1]}/`, {
      option_id: draft.correctOptionIds[1],
    })
    expect(practised.status).toBe(404)
    expect((await draft.flag(learner, 1)).body.code).toBe('challenge_not_open')

    const admin = await createUser(t.database, { is_admin: 1 })
    expect((await call(admin, 'POST', `/api/admin/quizzes/${draft.id}/publish/`)).status).toBe(200)
    const published = await draft.report(learner)
    expect(published.key_withheld).toBeNull()
    expect(keyShown(published)).toBe(true)
    expect(await topics(learner)).toEqual(['Algebra', 'Botany', 'Chemistry'])
    expect(await deck(learner)).toEqual(draft.questionIds.slice(1))
    expect((await draft.flag(learner, 1)).status).toBe(201)
  })

  it("keeps a paid-tier paper's key from a learner without paid access, and shows it with paid access", async () => {
    const paid = await quizOfThree({ is_paid_tier: 1 })
    const learner = await createUser(t.database)
    const sitting = await insertSitting(t, paid.id, t.clock.now() - 30 * MINUTE)
    await recordPaperAttempt(app.kept.lifecycle, sitting, {
      userId: learner.id,
      quizId: paid.id,
      answers: paid.answers('AB-'),
      now: t.clock.now(),
    })

    const report = await paid.report(learner)
    expect(report).toMatchObject({ key_withheld: 'paid_access', sections: [], analysis: { topics: [] } })
    expect(keyShown(report)).toBe(false)
    expect(await deck(learner)).toEqual([])
    expect((await paid.flag(learner, 1)).body.code).toBe('challenge_not_open')

    await t.db
      .updateTable('memberships')
      .set({ paid_access_until: t.clock.now() + DAY })
      .where('user_id', '=', learner.id)
      .execute()
    expect(keyShown(await paid.report(learner))).toBe(true)
    expect(await deck(learner)).toEqual(paid.questionIds.slice(1))
  })
})
