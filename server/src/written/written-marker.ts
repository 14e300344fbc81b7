import type { Marker } from '../outcomes/outcomes.service'
import { openAllAnswers } from './answering.repository'
import { releasedWrittenOf } from './written-answers.repository'

export const WRITTEN = 'written'

/** The written part of an attempt: its released marks, pending until every written question's answer is released. */
export const writtenMarker: Marker = {
  type: WRITTEN,
  async mark(trx, { attemptId, questions }) {
    const written = questions.filter((question) => question.type === WRITTEN)
    const released = attemptId === null ? [] : await releasedWrittenOf(trx, attemptId)
    const releasedIds = new Set(released.map((answer) => answer.question_id))
    return {
      score_hundredths: released.reduce((sum, answer) => sum + (answer.score_hundredths ?? 0), 0),
      correct: 0,
      incorrect: 0,
      unanswered: 0,
      pending: written.some((question) => !releasedIds.has(question.questionId)),
    }
  },
  // An unanswered question gets its empty answer too, which release settles at 0: else the attempt stays pending.
  async settle(trx, attempt) {
    await openAllAnswers(trx, attempt.id, JSON.parse(attempt.revision_ids) as number[], attempt.finished_at ?? 0)
  },
}
