import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { shuffled, type RandomInt } from '../lib/random'
import type { QuestionPapers } from '../questions/question-papers'
import { createCurrentQuestions } from './current-questions'
import { findExtraTimePercent, type LearnerQuizRow } from './learner-quizzes.repository'

/**
 * `deadline = min(started_at + duration × (1 + extra/100), end_time)`: a learner's extra time lengthens the
 * attempt but never past the quiz's end. 600 ms per percent-minute keeps it a whole number of milliseconds.
 */
const deadlineFor = (quiz: LearnerQuizRow, startedAt: number, extraTimePercent: number) =>
  Math.min(
    startedAt + quiz.duration_minutes * (60_000 + 600 * extraTimePercent),
    quiz.end_time ?? Number.POSITIVE_INFINITY,
  )

/** How a new attempt begins, whether a start creates it or a submit without one creates and finishes it at once. */
export function createNewAttempts({ papers, random }: { papers: QuestionPapers; random?: RandomInt }) {
  const currentRevisionIds = createCurrentQuestions()

  /**
   * The paper a new attempt gets: the quiz's current questions, in an order of its own when the quiz shuffles
   * questions, and with each question's options in an order of their own when it shuffles options. Drawn once
   * and stored with the attempt (docs/decisions/008-paper-order-stored-with-the-attempt.md).
   */
  async function drawPaper(trx: Kysely<DB>, quiz: LearnerQuizRow) {
    const authored = await currentRevisionIds(trx, quiz.id)
    const revisionIds = JSON.stringify(quiz.shuffle_questions === 1 ? shuffled(authored, random) : authored)
    if (quiz.shuffle_options !== 1) return { revision_ids: revisionIds, option_order: null }
    const paper = await papers.paperFor(trx, revisionIds)
    const optionOrder = paper.questions.map((question) =>
      shuffled(
        question.learner.options.map((option) => option.id),
        random,
      ),
    )
    return { revision_ids: revisionIds, option_order: JSON.stringify(optionOrder) }
  }

  /**
   * Who, which quiz, which number, begun when and due when: the fields every new attempt starts with. Numbers are
   * 1..n without gaps, so the unique (user, quiz, number) index caps attempts at allowed_attempts.
   */
  async function attemptBegun(trx: Kysely<DB>, userId: number, quiz: LearnerQuizRow, number: number, now: number) {
    return {
      user_id: userId,
      quiz_id: quiz.id,
      attempt_number: number,
      started_at: now,
      deadline: deadlineFor(quiz, now, await findExtraTimePercent(trx, userId)),
    }
  }

  return { drawPaper, attemptBegun }
}

export type NewAttempts = ReturnType<typeof createNewAttempts>
