import { writtenMessages } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { NotFound, ValidationFailed } from '../http/errors'
import { rescore } from '../outcomes/outcomes.service'
import { findRubric } from './rubric.repository'
import { revisionOf, scoringRubricOf } from './rubric'
import { findWrittenAnswer, listMarkedAnswers, setReleased, storeEvaluation } from './written-answers.repository'
import { RubricClash, scoreWrittenAnswer } from './written-score'

// What marking and release do to an answer and its attempt, in the caller's transaction; their routes build on these.

export interface Evaluation {
  items: readonly number[]
  /** Hundredths. */
  adjustment: number
  comment: { en: string; ne: string } | null
}

/** Scores the answer by its question's rubric and stores the items it used; two items of an exclusive group -> 400. */
export async function evaluateAnswer(
  trx: Kysely<DB>,
  answerId: number,
  evaluation: Evaluation,
  markedBy: number | null,
  now: number,
) {
  const answer = await findWrittenAnswer(trx, answerId)
  if (!answer) throw new NotFound('Answer not found.')
  const rubric = await findRubric(trx, answer.question_id)
  let score: number
  try {
    score = scoreWrittenAnswer(scoringRubricOf(rubric), {
      marks: answer.marks ?? 0,
      items: evaluation.items,
      adjustment: evaluation.adjustment,
    })
  } catch (error) {
    if (!(error instanceof RubricClash)) throw error
    throw new ValidationFailed({
      items: [error.kind === 'unknown_item' ? writtenMessages.unknownItem : writtenMessages.exclusiveHeld],
    })
  }
  await storeEvaluation(trx, answerId, { ...evaluation, score, rubricRevision: revisionOf(rubric), markedBy }, now)
  return score
}

/** Marked answers of the question become released; their marks join their attempts' scores through outcomes. */
export async function releaseAnswers(trx: Kysely<DB>, questionId: number, now: number) {
  const marked = (await listMarkedAnswers(trx, questionId)).filter((answer) => answer.status === 'marked')
  await setReleased(
    trx,
    marked.map((answer) => answer.id),
    now,
  )
  await rescore(
    trx,
    marked.map((answer) => ({
      attempt: answer.attempt,
      delta: { score_hundredths: answer.score_hundredths, correct: 0, incorrect: 0, unanswered: 0 },
    })),
  )
  return marked.length
}
