import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedOptionIds } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'

// The admin and bank question payloads under a decided key (docs/decisions/036, "Editing a question whose key
// was decided"): the editor saves what they show, so they show the key the revision scores on.

describe.each(dialects)('admin question payloads under a decided key on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** One question, options A (written right) B C D, answered B by one learner, and its key decided. */
  async function decided(body: (options: number[]) => object) {
    const admin = await createUser(t.database, { is_admin: 1 })
    const made = await openQuiz(t, {}, { questionCount: 1 })
    const questionId = made.questionIds[0]!
    const options = await storedOptionIds(t.db, questionId)
    const learner = await createUser(t.database)
    const sat = await call(learner, 'POST', `/api/quizzes/${made.quiz.id}/submit/`, {
      answers: { [questionId]: options[1] },
    })
    expect(sat.body).toMatchObject({ correct: 0, incorrect: 1 })
    const revisionId = (
      await t.db.selectFrom('questions').select('revision_id').where('id', '=', questionId).executeTakeFirstOrThrow()
    ).revision_id!
    const decision = await call(admin, 'POST', `/api/admin/questions/${questionId}/key/`, {
      revision_id: revisionId,
      note: 'Decided.',
      dry_run: false,
      ...body(options),
    })
    expect(decision.status).toBe(200)
    const quizQuestion = async () => (await call(admin, 'GET', `/api/admin/quizzes/${made.quiz.id}/`)).body.questions[0]
    const bankQuestion = async () => (await call(admin, 'GET', `/api/admin/bank/questions/${questionId}/`)).body
    return { admin, learner, quizId: made.quiz.id, questionId, options, revisionId, quizQuestion, bankQuestion }
  }

  const marked = (question: { options: { is_correct: boolean }[] }) =>
    question.options.map((option) => option.is_correct)

  /** A learner starts the quiz and submits the option at `index` (in authored order) of its current revision. */
  async function sit(quizId: number, questionId: number, index: number) {
    const learner = await createUser(t.database)
    const started = await call(learner, 'GET', `/api/quizzes/${quizId}/`)
    expect(started.status).toBe(200)
    const options = await storedOptionIds(t.db, questionId)
    const submitted = await call(learner, 'POST', `/api/quizzes/${quizId}/submit/`, {
      answers: { [questionId]: options[index] },
    })
    expect(submitted.status).toBe(200)
    return submitted.body
  }

  it('shows a changed key as the right option, with the decision, in the quiz and the bank', async () => {
    const s = await decided((options) => ({ action: 'change', correct_option_ids: [options[1]], note: 'B is right.' }))
    const key = {
      version: 1,
      action: 'change',
      correct_option_ids: [s.options[1]],
      drop_policy: null,
      note: 'B is right.',
      decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    }
    for (const question of [await s.quizQuestion(), await s.bankQuestion()]) {
      expect(question).toMatchObject({ id: s.questionId, revision_id: s.revisionId, key })
      expect(marked(question)).toEqual([false, true, false, false])
    }
  })

  it('writes the decided key into the revision an edit makes, so attempts started afterwards score on it', async () => {
    const s = await decided((options) => ({ action: 'change', correct_option_ids: [options[1]] }))
    // The editor sends back what it was given (unknown fields such as ids, html and key are ignored).
    const edited = await call(s.admin, 'PUT', `/api/admin/quizzes/${s.quizId}/questions/${s.questionId}/`, {
      ...(await s.quizQuestion()),
      topic: 'edited',
    })
    expect(edited.status).toBe(200)
    expect(edited.body.revision_id).not.toBe(s.revisionId)
    expect(edited.body.key).toBeNull()
    expect(marked(edited.body)).toEqual([false, true, false, false])
    expect(await s.quizQuestion()).toEqual(edited.body)

    expect(await sit(s.quizId, s.questionId, 1)).toMatchObject({ score: 1, correct: 1, incorrect: 0 })
    expect(await sit(s.quizId, s.questionId, 0)).toMatchObject({ correct: 0, incorrect: 1 })
    // The attempt taken before the edit keeps the decision.
    const before = await t.db.selectFrom('attempts').select(['correct']).where('user_id', '=', s.learner.id).execute()
    expect(before).toEqual([{ correct: 1 }])
  })

  it('does the same through the bank editor', async () => {
    const s = await decided((options) => ({ action: 'change', correct_option_ids: [options[2]] }))
    const edited = await call(s.admin, 'PUT', `/api/admin/bank/questions/${s.questionId}/`, await s.bankQuestion())
    expect(edited.status).toBe(200)
    expect(edited.body.key).toBeNull()
    expect(marked(edited.body)).toEqual([false, false, true, false])
    expect(await sit(s.quizId, s.questionId, 2)).toMatchObject({ correct: 1 })
  })

  it('shows the written key after accept_several and drop, and the decision in key', async () => {
    const several = await decided((options) => ({
      action: 'accept_several',
      correct_option_ids: [options[1], options[0]],
    }))
    const question = await several.bankQuestion()
    expect(marked(question)).toEqual([true, false, false, false])
    expect(question.key).toMatchObject({
      action: 'accept_several',
      correct_option_ids: [several.options[0], several.options[1]].sort((a, b) => a! - b!),
      drop_policy: null,
    })
    // An edit writes only what the editor marks: the new revision scores on A alone.
    await call(several.admin, 'PUT', `/api/admin/bank/questions/${several.questionId}/`, question)
    expect(await sit(several.quizId, several.questionId, 1)).toMatchObject({ correct: 0, incorrect: 1 })

    const dropped = await decided(() => ({ action: 'drop', drop_policy: 'exclude' }))
    const quizQuestion = await dropped.quizQuestion()
    expect(marked(quizQuestion)).toEqual([true, false, false, false])
    expect(quizQuestion.key).toMatchObject({ version: 1, action: 'drop', drop_policy: 'exclude' })
  })

  it('shows a keep as the key it keeps, and null before any decision', async () => {
    const kept = await decided(() => ({ action: 'keep' }))
    const question = await kept.quizQuestion()
    expect(marked(question)).toEqual([true, false, false, false])
    expect(question.key).toMatchObject({ action: 'keep', correct_option_ids: [kept.options[0]] })
    const fresh = await openQuiz(t, {}, { questionCount: 1 })
    expect((await call(kept.admin, 'GET', `/api/admin/quizzes/${fresh.quiz.id}/`)).body.questions[0].key).toBeNull()
  })
})
