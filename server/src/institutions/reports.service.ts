import type { AttemptSelection, QuizAttemptPage, StatisticsSelection } from '@quiz/contracts'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import { toScore } from '../questions/scoring'
import { attemptsCsv, durationSeconds } from './reports-csv'
import { quizStatistics } from './reports-statistics'
import { countChosenAttempts, findReportableQuiz, pageChosenAttempts } from './reports.repository'

const quizNotFound = () => new NotFound('Quiz not found.')

export function createReportsService({ database }: Pick<AppContext, 'database'>) {
  const { db } = database

  async function requireQuiz(quizId: number) {
    const quiz = await findReportableQuiz(db, quizId)
    if (!quiz) throw quizNotFound()
    return quiz
  }

  async function listAttempts(
    quizId: number,
    { which, page, page_size }: { which: AttemptSelection; page: number; page_size: number },
  ): Promise<QuizAttemptPage> {
    await requireQuiz(quizId)
    const [count, rows] = await Promise.all([
      countChosenAttempts(db, quizId, which),
      pageChosenAttempts(db, quizId, which, { limit: page_size, offset: (page - 1) * page_size }),
    ])
    return {
      count,
      results: rows.map((row) => ({
        attempt_id: row.id,
        user: { id: row.user_id, username: row.username, full_name: row.full_name },
        attempt_number: row.attempt_number,
        score: toScore(row.score_hundredths!),
        correct: row.correct!,
        incorrect: row.incorrect!,
        unanswered: row.unanswered!,
        started_at: toIso(row.started_at),
        completed_timestamp: toIso(row.finished_at!),
        duration_seconds: durationSeconds(row),
        late: row.late === 1,
        mode: row.mode,
      })),
    }
  }

  return {
    listAttempts,
    // The quiz is checked before the stream starts, so a 404 comes before any byte.
    attemptsCsv: async (quizId: number, which: AttemptSelection) => {
      await requireQuiz(quizId)
      return attemptsCsv(database, quizId, which)
    },
    statistics: async (quizId: number, which: StatisticsSelection) => {
      await requireQuiz(quizId)
      return quizStatistics(db, quizId, which)
    },
  }
}

export type ReportsService = ReturnType<typeof createReportsService>
