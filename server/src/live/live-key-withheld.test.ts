import { describe, expect, it } from 'vitest'
import type { UserRow } from '../db/schema'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedAttempts } from '../../test/learner-api'
import { openLiveMock } from '../../test/live-mock'
import { useTestApp } from '../../test/test-app'

const MINUTE = 60_000
const GRACE = 120_000
const iso = (ms: number) => new Date(ms).toISOString()

interface ReportOption {
  is_correct: boolean
}
interface Report {
  key_withheld_until: string | null
  analysis: { topics: unknown[] }
  score: number
  questions: { hint: unknown; options: ReportOption[] }[]
}

// docs/decisions/042: a live mock's key stays hidden from everyone until no ranked learner can still answer.
describe.each(dialects)("a live mock's key on %s", (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** openLiveMock's mock (each question with a hint), with the learner's report card. */
  async function liveMock() {
    const mock = await openLiveMock(t)
    const report = async (user: UserRow) => {
      const [attempt] = await storedAttempts(t.db, user.id, mock.id)
      return (await call(user, 'GET', `/api/results/${attempt!.id}/`)).body as Report
    }
    return { ...mock, report }
  }
  const keyShown = (report: Report) =>
    report.questions.some((question) => question.hint !== null || question.options.some((o) => o.is_correct))
  const deckIds = async (user: UserRow) =>
    ((await call(user, 'GET', '/api/practice/')).body.cards as { question: { id: number } }[]).map(
      (card) => card.question.id,
    )

  it('shows an early submitter no key, hint or practice card while another learner sits', async () => {
    const mock = await liveMock()
    const [early, sitting] = [await createUser(t.database), await createUser(t.database)]
    t.clock.set(mock.startsAt)
    await mock.start(early)
    await mock.start(sitting)
    expect((await mock.submit(early, 'BB-')).status).toBe(200)

    const report = await mock.report(early)
    expect(keyShown(report)).toBe(false)
    expect(report.key_withheld_until).toBe(iso(mock.ends + GRACE))
    expect(JSON.stringify(report)).not.toContain('A hint')
    expect(report.analysis.topics).toEqual([])
    // The deck has the three mistakes but shows none of them, and answering one tells nothing.
    expect(await deckIds(early)).toEqual([])
    const practised = await call(early, 'POST', `/api/practice/${mock.questionIds[0]}/`, {
      option_id: mock.options[0]![1],
    })
    expect(practised.status).toBe(404)
    expect(practised.raw).not.toContain(String(mock.options[0]![0]))
  })

  it('counts the largest extra time while learners may still join, and the joiners deadlines after', async () => {
    const mock = await liveMock()
    const early = await createUser(t.database)
    // A learner with 50 % extra time, who never joins.
    await createUser(t.database, { extra_time_percent: 50 })
    t.clock.set(mock.startsAt)
    await mock.start(early)
    await mock.submit(early, 'AAA')
    // Slow may still join and would sit until 45 minutes after the start.
    expect((await mock.report(early)).key_withheld_until).toBe(iso(mock.startsAt + 45 * MINUTE + GRACE))

    t.clock.set(mock.joinEnds)
    // Slow did not join: the common end is the last deadline.
    expect((await mock.report(early)).key_withheld_until).toBe(iso(mock.ends + GRACE))
    t.clock.set(mock.ends + GRACE)
    expect(keyShown(await mock.report(early))).toBe(false)
    t.clock.set(mock.ends + GRACE + 1)
    const open = await mock.report(early)
    expect(open.key_withheld_until).toBeNull()
    expect(open.questions.map((question) => question.options[0]!.is_correct)).toEqual([true, true, true])
    expect(open.questions[0]!.hint).toMatchObject({ en: 'A hint' })
    expect(open.analysis.topics).toMatchObject([{ topic: 'general', correct: 3 }])
  })

  it('opens the report with the key only once the last ranked deadline plus grace has passed', async () => {
    const mock = await liveMock()
    const [early, slow] = [await createUser(t.database), await createUser(t.database, { extra_time_percent: 100 })]
    t.clock.set(mock.startsAt)
    await mock.start(early)
    await mock.start(slow)
    await mock.submit(early, 'B--')
    const slowDeadline = mock.startsAt + 60 * MINUTE

    // Past the common end, slow still sits: no practice attempt starts, since its score would tell the key.
    const practising = await createUser(t.database)
    t.clock.set(mock.ends + GRACE + 1)
    const refused = await mock.start(practising)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('practice_not_open')
    expect((await mock.report(early)).key_withheld_until).toBe(iso(slowDeadline + GRACE))
    expect(await deckIds(early)).toEqual([])

    t.clock.set(slowDeadline + GRACE + 1)
    await mock.start(practising)
    expect((await mock.submit(practising, 'AAA')).body.score).toBe(3)
    const open = await mock.report(early)
    expect(open.key_withheld_until).toBeNull()
    expect(keyShown(open)).toBe(true)
    expect(keyShown(await mock.report(practising))).toBe(true)
    expect(await deckIds(early)).toEqual(mock.questionIds)
    const practised = await call(early, 'POST', `/api/practice/${mock.questionIds[0]}/`, {
      option_id: mock.options[0]![1],
    })
    expect(practised.body).toMatchObject({ correct: false, correct_option_id: mock.options[0]![0] })
  })

  it('scores a submit in the grace period on the answers saved before the deadline: late, new ones dropped', async () => {
    const mock = await liveMock()
    const learner = await createUser(t.database)
    t.clock.set(mock.startsAt)
    await mock.start(learner)
    expect((await mock.save(learner, 'A--')).status).toBe(200)

    t.clock.set(mock.ends + GRACE / 2)
    const submitted = await mock.submit(learner, 'AAA')
    expect(submitted.status).toBe(200)
    expect(submitted.body).toMatchObject({ score: 1, correct: 1, unanswered: 2, late: true })
    const [attempt] = await storedAttempts(t.db, learner.id, mock.id)
    expect(attempt).toMatchObject({ status: 'finished', late: 1, score_hundredths: 100 })
  })

  it('still takes a submit sent before the deadline in full', async () => {
    const mock = await liveMock()
    const learner = await createUser(t.database)
    t.clock.set(mock.startsAt)
    await mock.start(learner)
    t.clock.set(mock.ends)
    expect((await mock.submit(learner, 'AAA')).body).toMatchObject({ score: 3, late: false })
  })
})

describe.each(dialects)('the practice deck during an attempt on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  it('leaves out the questions of the paper the learner is sitting until it is finished', async () => {
    const learner = await createUser(t.database)
    const quiz = await openQuiz(t, {}, { questionCount: 2 })
    const [first, second] = quiz.questionIds as [number, number]
    const submit = (answers: Record<number, number>) =>
      call(learner, 'POST', `/api/quizzes/${quiz.quiz.id}/submit/`, { answers })
    await submit({ [first]: quiz.wrongOptionIds[0]!, [second]: quiz.wrongOptionIds[1]! })
    const deck = async () => (await call(learner, 'GET', '/api/practice/')).body
    expect((await deck()).cards).toHaveLength(2)

    // The second sitting of the same paper: practice would tell its key.
    expect((await call(learner, 'GET', `/api/quizzes/${quiz.quiz.id}/`)).status).toBe(200)
    expect(await deck()).toMatchObject({ due: 0, total: 0, cards: [] })
    const practised = await call(learner, 'POST', `/api/practice/${first}/`, { option_id: quiz.wrongOptionIds[0] })
    expect(practised.status).toBe(404)

    await submit({ [first]: quiz.wrongOptionIds[0]!, [second]: quiz.wrongOptionIds[1]! })
    expect((await deck()).cards).toHaveLength(2)
  })
})
