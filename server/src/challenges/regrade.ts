import { attemptColumns } from '../attempts/attempts.service'
import type { AnswerKey } from '../questions/answer-keys'
import { markQuestion, sectionMarks, type AnswerValue, type ScoredQuestion } from '../questions/scoring'
import { attemptSections, DEFAULT_MARKS_CORRECT, DEFAULT_MARKS_WRONG } from '../questions/sections'
import type { Marked, SectionMarks, TypedOutcome } from '../questions/type-marks'
import type { HoldingAttempt } from './challenges.repository'

// The pure part of a key decision: how each attempt holding the revision scores under the key it was scored on
// and under the new one, and how ranks move. No I/O, so it is the same for a dry run and a commit. Every type is
// marked by its own marker (questions/type-marks.ts) under its section's marking, partial marks included.

export interface MarkChange {
  attempt: HoldingAttempt
  oldMarks: number
  newMarks: number
  oldOutcome: TypedOutcome
  newOutcome: TypedOutcome
}

/** The question's marking in the attempt's paper (its section's). */
function marksIn(attempt: HoldingAttempt, revisionId: number): SectionMarks | undefined {
  const revisionIds = attemptColumns.revisionIds(attempt)
  const place = revisionIds.indexOf(revisionId)
  if (place < 0) return undefined
  let first = 0
  for (const section of attemptSections(attempt.sections, revisionIds.length)) {
    if (place < first + section.count) return sectionMarks(section)
    first += section.count
  }
  return { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }
}

/** The attempt's answer as the markers read it: a choice's option id, a multiple set, a typed number. */
function answerOf(attempt: HoldingAttempt): AnswerValue {
  if (attempt.value !== null) return JSON.parse(attempt.value) as AnswerValue
  return attempt.option_id
}

const markedIn = (attempt: HoldingAttempt, question: ScoredQuestion, marks: SectionMarks, key?: AnswerKey): Marked =>
  markQuestion({ ...question, key }, answerOf(attempt), marks)

/** Each attempt's outcome and marks on the question under a key (undefined: the revision's own), and full marks. */
export function itemScores(
  attempts: readonly HoldingAttempt[],
  revisionId: number,
  question: ScoredQuestion,
  key: AnswerKey | undefined,
) {
  return attempts.flatMap((attempt) => {
    const marks = marksIn(attempt, revisionId)
    if (!marks) return []
    const { outcome, marks: gained } = markedIn(attempt, question, marks, key)
    return [{ attempt, outcome, marks: gained, full: marks.correct }]
  })
}

export function markChanges(
  attempts: readonly HoldingAttempt[],
  revisionId: number,
  question: ScoredQuestion,
  oldKey: AnswerKey | undefined,
  newKey: AnswerKey,
): MarkChange[] {
  const changes: MarkChange[] = []
  for (const attempt of attempts) {
    const marks = marksIn(attempt, revisionId)
    if (!marks) continue
    const before = markedIn(attempt, question, marks, oldKey)
    const after = markedIn(attempt, question, marks, newKey)
    if (before.outcome === after.outcome && before.marks === after.marks) continue
    changes.push({
      attempt,
      oldMarks: before.marks,
      newMarks: after.marks,
      oldOutcome: before.outcome,
      newOutcome: after.outcome,
    })
  }
  return changes
}
