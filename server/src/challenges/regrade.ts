import { attemptColumns } from '../attempts/attempts.service'
import { keyedMarks, keyedOutcome, type AnswerKey, type KeyedOutcome } from '../questions/answer-keys'
import { attemptSections, DEFAULT_MARKS_CORRECT, DEFAULT_MARKS_WRONG, marksByPlace } from '../questions/sections'
import type { HoldingAttempt } from './challenges.repository'

// The pure part of a key decision: how each attempt holding the revision scores under the key it was scored on
// and under the new one, and how ranks move. No I/O, so it is the same for a dry run and a commit.

export interface MarkChange {
  attempt: HoldingAttempt
  oldMarks: number
  newMarks: number
  oldOutcome: KeyedOutcome
  newOutcome: KeyedOutcome
}

/** The question's marks in the attempt's paper (its section's). */
function marksIn(attempt: HoldingAttempt, revisionId: number) {
  const revisionIds = attemptColumns.revisionIds(attempt)
  const place = revisionIds.indexOf(revisionId)
  if (place < 0) return undefined
  return (
    marksByPlace(attemptSections(attempt.sections, revisionIds.length))[place] ?? {
      correct: DEFAULT_MARKS_CORRECT,
      wrong: DEFAULT_MARKS_WRONG,
    }
  )
}

/** Each attempt's outcome and item score on the question under a key (undefined: the revision's own). */
export function itemScores(
  attempts: readonly HoldingAttempt[],
  revisionId: number,
  authoredCorrectId: number | null,
  key: AnswerKey | undefined,
) {
  return attempts.map((attempt) => {
    const outcome = keyedOutcome(attempt.option_id, authoredCorrectId, key)
    const marks = marksIn(attempt, revisionId)
    return { attempt, outcome, marks: marks ? keyedMarks(outcome, marks) : 0 }
  })
}

export function markChanges(
  attempts: readonly HoldingAttempt[],
  revisionId: number,
  authoredCorrectId: number | null,
  oldKey: AnswerKey | undefined,
  newKey: AnswerKey,
): MarkChange[] {
  const changes: MarkChange[] = []
  for (const attempt of attempts) {
    const marks = marksIn(attempt, revisionId)
    if (!marks) continue
    const oldOutcome = keyedOutcome(attempt.option_id, authoredCorrectId, oldKey)
    const newOutcome = keyedOutcome(attempt.option_id, authoredCorrectId, newKey)
    if (oldOutcome === newOutcome) continue
    changes.push({
      attempt,
      oldMarks: keyedMarks(oldOutcome, marks),
      newMarks: keyedMarks(newOutcome, marks),
      oldOutcome,
      newOutcome,
    })
  }
  return changes
}
