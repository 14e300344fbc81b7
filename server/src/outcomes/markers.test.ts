import { describe, expect, it } from 'vitest'
import { createAttemptLifecycle } from '../attempts/attempts.service'
import type { UserRow } from '../db/schema'
import { createQuestionPapers } from '../questions/question-papers'
import { dialects } from '../../test/dialects'
import { createUser } from '../../test/factories'
import { openQuiz, requestsAs, storedAttempts } from '../../test/learner-api'
import { useTestApp } from '../../test/test-app'
import { choiceMarker, createOutcomes, type Marker } from './outcomes.service'

// A second question type, registered here only: its marks are `released` hundredths, pending until `final`.
function essayMarker(state: { released: number; final: boolean }): Marker {
  return {
    type: 'essay',
    mark: (_trx, { questions }) => ({
      score_hundredths: state.released,
      correct: 0,
      incorrect: 0,
      unanswered: 0,
      pending: !state.final && questions.some((question) => question.type === 'essay'),
    }),
  }
}

// docs/decisions/062: finish() asks each question type of the paper for its part; the total is their sum, and an
// attempt with a part pending is not counted in ranks until it is final (API.md "Written answers").
describe.each(dialects)('markers on %s', (dialect) => {
  const t = useTestApp(dialect)
  const call = requestsAs(t)

  /** Starts the learner's attempt at a 2-question quiz (A right) and finishes it with question 2 an essay. */
  async function finishWithEssay(learner: UserRow, marker: Marker | null) {
    const { quiz, questionIds, correctOptionIds } = await openQuiz(t, {}, { questionCount: 2 })
    expect((await call(learner, 'GET', `/api/quizzes/${quiz.id}/`)).status).toBe(200)
    const [attempt] = await storedAttempts(t.db, learner.id, quiz.id)
    const outcomes = createOutcomes({ markers: marker ? [choiceMarker, marker] : [choiceMarker] })
    const lifecycle = createAttemptLifecycle({ ...t, papers: createQuestionPapers(), outcomes })
    const finished = await lifecycle.attemptTransaction(async (trx) => {
      const paper = await lifecycle.lockedPaper(trx, attempt!)
      const essay = { ...paper, questions: paper.questions.map((q, i) => (i === 1 ? { ...q, type: 'essay' } : q)) }
      return lifecycle.finish(
        trx,
        { inProgress: attempt! },
        {
          answers: new Map([[questionIds[0]!, correctOptionIds[0]!]]),
          finishedAt: t.clock.now(),
          late: false,
          submitted: true,
          paper: essay,
        },
      )
    })
    const tally = await t.db.selectFrom('first_attempt_scores').selectAll().where('quiz_id', '=', quiz.id).execute()
    return { attempt: finished.attempt, tally }
  }

  it('sums the parts and leaves an attempt with a pending part out of the rank tally', async () => {
    const { attempt, tally } = await finishWithEssay(
      await createUser(t.database),
      essayMarker({ released: 0, final: false }),
    )
    // The choice part alone: question 1 right, question 2 the essay marker's (nothing released yet).
    expect(attempt).toMatchObject({ score_hundredths: 100, correct: 1, incorrect: 0, unanswered: 0, marks_pending: 1 })
    expect(tally).toEqual([])
  })

  it('counts an attempt whose parts are all final, with the second part in its total', async () => {
    const { attempt, tally } = await finishWithEssay(
      await createUser(t.database),
      essayMarker({ released: 350, final: true }),
    )
    expect(attempt).toMatchObject({ score_hundredths: 450, correct: 1, marks_pending: 0 })
    expect(tally).toMatchObject([{ score_hundredths: 450, learners: 1 }])
  })

  it('refuses to finish a paper holding a type no marker marks', async () => {
    await expect(finishWithEssay(await createUser(t.database), null)).rejects.toThrow(
      'no marker for questions of type essay',
    )
  })
})
