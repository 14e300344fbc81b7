import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedOptionIds } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

// Item figures under a decided key (docs/decisions/036): the bank's facility, the quiz statistics and the
// challenge queue count answers as the key scores them; a question dropped with `exclude` counts in none.

describe.each(dialects)('item figures under a decided key on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** Three questions, options A (written right) B C D; four learners answer question 1 B, B, A and nothing. */
  async function setUp() {
    const admin = await createUser(t.database, { is_admin: 1 })
    const made = await openQuiz(t, {}, { questionCount: 3 })
    const [first, ...rest] = made.questionIds as [number, ...number[]]
    const options = await storedOptionIds(t.db, first)
    const learners = []
    for (const choice of [options[1], options[1], options[0], null]) {
      const learner = await createUser(t.database)
      const answers: Record<number, number | null> = { [first]: choice ?? null }
      for (const id of rest) answers[id] = (await storedOptionIds(t.db, id))[0]
      const submitted = await call(learner, 'POST', `/api/quizzes/${made.quiz.id}/submit/`, { answers })
      expect(submitted.status).toBe(200)
      learners.push({ learner, attemptId: submitted.body.attempt_id as number })
    }
    const revisionId = (
      await t.db.selectFrom('questions').select('revision_id').where('id', '=', first).executeTakeFirstOrThrow()
    ).revision_id!
    const decide = async (body: object) => {
      const decision = await call(admin, 'POST', `/api/admin/questions/${first}/key/`, {
        revision_id: revisionId,
        note: 'Decided.',
        dry_run: false,
        ...body,
      })
      expect(decision.status).toBe(200)
    }
    const bankRow = async () =>
      (await call(admin, 'GET', `/api/admin/bank/questions/?ids=${first}`)).body.results[0] as {
        responses: number
        facility: number | null
      }
    const statistics = async () =>
      (await call(admin, 'GET', `/api/admin/quizzes/${made.quiz.id}/statistics/?which=all`)).body.questions[0] as {
        facility: number | null
        discrimination: number | null
        unanswered: number
        options: { count: number }[]
        flags: string[]
      }
    return { admin, quizId: made.quiz.id, first, options, learners, decide, bankRow, statistics }
  }

  it('counts the bank facility and the statistics under each key the question is given', async () => {
    const s = await setUp()
    expect(await s.bankRow()).toMatchObject({ responses: 3, facility: 0.3333 })
    expect(await s.statistics()).toMatchObject({ facility: 0.25, unanswered: 1 })

    await s.decide({ action: 'change', correct_option_ids: [s.options[1]] })
    expect(await s.bankRow()).toMatchObject({ responses: 3, facility: 0.6667 })
    expect(await s.statistics()).toMatchObject({ facility: 0.5, unanswered: 1 })

    await s.decide({ action: 'accept_several', correct_option_ids: [s.options[0], s.options[1]] })
    expect(await s.bankRow()).toMatchObject({ responses: 3, facility: 1 })
    expect(await s.statistics()).toMatchObject({ facility: 0.75, unanswered: 1 })

    // Full marks to every paper that holds it: the learner who left it blank counts right too.
    await s.decide({ action: 'drop', drop_policy: 'full_marks_all' })
    expect(await s.bankRow()).toMatchObject({ responses: 3, facility: 1 })
    expect(await s.statistics()).toMatchObject({ facility: 1, unanswered: 0 })

    await s.decide({ action: 'drop', drop_policy: 'full_marks_answered' })
    expect(await s.statistics()).toMatchObject({ facility: 0.75, unanswered: 1 })

    // Excluded: in none of the figures; what was chosen is still shown.
    await s.decide({ action: 'drop', drop_policy: 'exclude' })
    expect(await s.bankRow()).toMatchObject({ responses: 0, facility: null })
    const excluded = await s.statistics()
    expect(excluded).toMatchObject({ facility: null, discrimination: null, unanswered: 0, flags: [] })
    expect(excluded.options.map((option) => option.count)).toEqual([1, 2, 0, 0])
  })

  it('gives the challenge queue no facility for an excluded question', async () => {
    const s = await setUp()
    const { learner, attemptId } = s.learners[0]!
    expect(
      (await call(learner, 'POST', `/api/results/${attemptId}/flags/`, { question_id: s.first, reason: 'other' }))
        .status,
    ).toBe(201)
    await s.decide({ action: 'drop', drop_policy: 'exclude' })
    const queue = (await call(s.admin, 'GET', '/api/admin/flags/?status=decided')).body
    expect(queue.results[0]).toMatchObject({ facility: null, discrimination: null })
  })
})
