import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedAnswers, storedAttempts } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { alreadySubmitted, timeIsUp } from './attempt-rules'

// An autosave remembers the attempt it saved to (decision 135); these are the ways that attempt can stop being the one
// to save to behind the process's back (another process, an admin, a later attempt), each refused or redirected as a
// save without the memory would be.
describe.each(dialects)('an autosave to a remembered attempt on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  async function startedWithOneSave() {
    const { quiz, questionIds, correctOptionIds, wrongOptionIds } = await openQuiz(t, {}, { questionCount: 2 })
    const user = await createUser(t.database)
    expect((await call(user, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)
    const save = (questionId: number, optionId: number) =>
      call(user, 'PUT', `/api/quizzes/${quiz.id}/answers/`, { answers: { [questionId]: optionId } })
    expect((await save(questionIds[0]!, correctOptionIds[0]!)).body).toEqual({ saved: 1 })
    const [attempt] = await storedAttempts(t.db, user.id, quiz.id)
    return { quiz, user, attempt: attempt!, save, questionIds, correctOptionIds, wrongOptionIds }
  }

  it('is refused with 409 once the attempt was finished elsewhere, and writes nothing', async () => {
    const { attempt, save, questionIds, wrongOptionIds } = await startedWithOneSave()
    await t.db.updateTable('attempts').set({ status: 'finished', submitted: 1 }).where('id', '=', attempt.id).execute()

    const refused = await save(questionIds[1]!, wrongOptionIds[1]!)
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toBe(alreadySubmitted().message)
    expect((await storedAnswers(t.db, attempt.id)).map((answer) => answer.question_id)).toEqual([questionIds[0]])
  })

  it('is refused as time up once the deadline is moved before now, and writes nothing', async () => {
    const { attempt, save, questionIds, wrongOptionIds } = await startedWithOneSave()
    await t.db
      .updateTable('attempts')
      .set({ deadline: t.clock.now() - 1000 })
      .where('id', '=', attempt.id)
      .execute()

    const refused = await save(questionIds[1]!, wrongOptionIds[1]!)
    expect(refused.status).toBe(409)
    expect(refused.body.detail).toBe(timeIsUp().message)
    expect((await storedAnswers(t.db, attempt.id)).map((answer) => answer.question_id)).toEqual([questionIds[0]])
  })

  it("lands in the learner's next attempt after a submit, not in the finished one", async () => {
    const { quiz, user, attempt, save, questionIds, wrongOptionIds } = await startedWithOneSave()
    expect((await call(user, 'POST', `/api/quizzes/${quiz.id}/submit/`, { answers: {} })).status).toBe(200)
    expect((await call(user, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)

    expect((await save(questionIds[1]!, wrongOptionIds[1]!)).body).toEqual({ saved: 1 })
    const [first, second] = await storedAttempts(t.db, user.id, quiz.id)
    expect(first!.id).toBe(attempt.id)
    expect((await storedAnswers(t.db, first!.id)).map((answer) => answer.question_id)).toEqual([questionIds[0]])
    expect(await storedAnswers(t.db, second!.id)).toEqual([
      { question_id: questionIds[1], option_id: wrongOptionIds[1] },
    ])
  })
})
