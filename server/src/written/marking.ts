import { writtenMessages } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { NotFound, ValidationFailed } from '../http/errors'
import { findRubric } from './rubric.repository'
import { revisionOf, scoringRubricOf } from './rubric'
import { findWrittenAnswer, storeEvaluation } from './written-answers.repository'
import { RubricClash, scoreWrittenAnswer } from './written-score'

// What marking does to an answer, in the caller's transaction (marking-evaluation.ts; release is in marking-release.ts).

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
  options: { released?: boolean } = {},
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
  await storeEvaluation(
    trx,
    answerId,
    { ...evaluation, score, rubricRevision: revisionOf(rubric), markedBy },
    now,
    options,
  )
  return score
}
