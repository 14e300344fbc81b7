import type { AnswerValue } from '../questions/scoring'
import { adaptedOf } from '../questions/needs-sight'
import type { Difficulty, QuizAttempt, SavedWrittenAnswer } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { toIso } from '../lib/clock'
import type { Paper, QuestionPapers } from '../questions/question-papers'
import type { listQuestionStates } from './attempts.repository'
import { toExamState } from './exam-state'
import type { LearnerQuiz, LearnerQuizRow } from './learner-quizzes.repository'
import { sectionClock, toAttemptSections } from './section-clock'

const toQuizSummary = (quiz: LearnerQuizRow, attemptCount: number) => ({
  id: quiz.id,
  title: { en: quiz.title_en, ne: quiz.title_ne },
  duration_minutes: quiz.duration_minutes,
  difficulty: quiz.difficulty as Difficulty,
  is_paid_tier: quiz.is_paid_tier === 1,
  allowed_attempts: quiz.allowed_attempts,
  remaining_attempts: Math.max(0, quiz.allowed_attempts - attemptCount),
})

/** Saved written answers by question id; written/ sits above attempts/, so services.ts hands the reader in. */
export type SavedWrittenAnswers = (attemptId: number, now: number) => Promise<Record<string, SavedWrittenAnswer>>

export interface StartedAttempt {
  attempt: AttemptRow
  /** Begun by this very request: nothing is saved in it yet, so nothing is read. */
  fresh: boolean
  /** The learner's online attempts at the quiz (what the limit counts), this one included. */
  count: number
  answers: ReadonlyMap<number, AnswerValue>
  states: Awaited<ReturnType<typeof listQuestionStates>>
}

const nothingWritten = (): SavedWrittenAnswer => ({ text: '', word_count: 0, pages: [] })

/** Each written question's saved answer in paper order (docs/decisions/081); a start reads nothing. */
async function writtenOf(
  paper: Paper,
  { attempt, fresh }: StartedAttempt,
  savedWritten: SavedWrittenAnswers,
  now: number,
): Promise<Record<string, SavedWrittenAnswer> | undefined> {
  const ids = paper.questions.flatMap(({ learner }) => (learner.type === 'written' ? [learner.id] : []))
  if (ids.length === 0) return undefined
  const saved = fresh ? {} : await savedWritten(attempt.id, now)
  const written: Record<string, SavedWrittenAnswer> = {}
  for (const id of ids) written[id] = saved[id] ?? nothingWritten()
  return written
}

export async function toQuizAttempt(
  { db, papers, savedWritten }: { db: Kysely<DB>; papers: QuestionPapers; savedWritten: SavedWrittenAnswers },
  quiz: LearnerQuiz,
  started: StartedAttempt,
  now: number,
  paperKey?: string,
): Promise<QuizAttempt> {
  const { attempt, count, answers, states } = started
  const paper = await papers.paperFor(db, attempt.revision_ids, attempt.option_order, quiz.passages_version)
  const saved: Record<string, number | number[] | string> = {}
  for (const [questionId, answer] of answers)
    if (answer !== null) saved[questionId] = typeof answer === 'object' ? [...answer] : answer
  const examState = toExamState(paper, states)
  const written = await writtenOf(paper, started, savedWritten, now)
  return {
    ...toQuizSummary(quiz, count),
    question_count: paper.questions.length,
    // With the key, a shuffled attempt's option order: the paper ahead holds the authored one (docs/decisions/069).
    questions:
      paperKey && attempt.option_order
        ? paper.questions.map(({ learner }) => ({ id: learner.id, options: learner.options.map((o) => o.id) }))
        : (paper.questionRefs as { id: number }[]),
    attempt: {
      id: attempt.id,
      started_at: toIso(attempt.started_at),
      deadline: toIso(attempt.deadline),
      remaining_seconds: Math.max(0, Math.floor((attempt.deadline - now) / 1000)),
      ranked: attempt.ranked === 1,
      answers: saved,
      // Named, not spread: a spread after other fields builds the object field by field into a new shape.
      marked: examState.marked,
      visited: examState.visited,
      time_spent: examState.time_spent,
      sections: toAttemptSections(sectionClock(attempt, now)),
      ...(paperKey ? { paper_key: paperKey } : {}),
      ...(written ? { written } : {}),
      adapted: adaptedOf(attempt),
    },
  }
}
