import type { QuizResults, ReportCard, ReportImage } from '@quiz/contracts'
import type { TokenUser } from '../auth/tokens'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import { findRevisions, toImage } from '../questions/question-revisions.repository'
import { listAnswers } from '../quizzes/attempts.repository'
import type { AttemptLifecycle } from '../quizzes/attempts.service'
import { inDrawnOrder } from '../quizzes/question-papers'
import { toScore } from '../quizzes/scoring'
import { findAttemptOfLearner, listFinishedAttempts } from './results.repository'

const reportImage = (svg: string | null, captionEn: string, captionNe: string): ReportImage =>
  toImage(svg, captionEn, captionNe, 'svg_content')

export function createResultsService({
  database,
  clock,
  lifecycle,
}: Pick<AppContext, 'database' | 'clock'> & { lifecycle: AttemptLifecycle }) {
  const { db } = database

  /** Quizzes with finished attempts, the most recently completed first; attempts in the order they were taken. */
  async function listResults(user: TokenUser): Promise<QuizResults[]> {
    await lifecycle.settleExpired(user.id)
    const byQuiz = new Map<number, QuizResults & { latest: number }>()
    for (const row of await listFinishedAttempts(db, user.id)) {
      let quiz = byQuiz.get(row.quiz_id)
      if (!quiz) {
        quiz = { id: row.quiz_id, title: { en: row.title_en, ne: row.title_ne }, attempts: [], latest: 0 }
        byQuiz.set(row.quiz_id, quiz)
      }
      const completedAt = row.finished_at ?? 0
      quiz.latest = Math.max(quiz.latest, completedAt)
      quiz.attempts.push({
        id: row.id,
        attempt_number: row.attempt_number,
        score: toScore(row.score_hundredths ?? 0),
        completed_timestamp: toIso(completedAt),
      })
    }
    return [...byQuiz.values()]
      .sort((a, b) => b.latest - a.latest || b.id - a.id)
      .map(({ latest: _latest, ...quiz }) => quiz)
  }

  /**
   * The report card of a finished attempt, built from the revisions the attempt started with: later edits,
   * deleted questions and deleted quizzes leave it as the learner saw it. An attempt still in progress has none.
   */
  async function getReport(user: TokenUser, attemptId: number): Promise<ReportCard> {
    let attempt = await findAttemptOfLearner(db, user.id, attemptId)
    if (attempt && lifecycle.isExpired(attempt, clock.now())) {
      await lifecycle.settleExpired(user.id, attempt.quiz_id)
      attempt = await findAttemptOfLearner(db, user.id, attemptId)
    }
    if (!attempt || attempt.status !== 'finished') throw new NotFound('Result not found.')

    // The report follows the attempt's own order of questions and options, as the learner saw them.
    const revisionIds = JSON.parse(attempt.revision_ids) as number[]
    const optionOrder = attempt.option_order ? (JSON.parse(attempt.option_order) as number[][]) : []
    const revisions = await findRevisions(db, revisionIds)
    const answers = await listAnswers(db, attempt.id)
    const questions = revisionIds.map((revisionId) => {
      const revision = revisions.get(revisionId)
      if (!revision) throw new Error(`question revision ${revisionId} is missing`)
      return revision
    })
    return {
      id: attempt.id,
      attempt_number: attempt.attempt_number,
      quiz: { id: attempt.quiz_id, title: { en: attempt.title_en, ne: attempt.title_ne } },
      score: toScore(attempt.score_hundredths ?? 0),
      correct: attempt.correct ?? 0,
      incorrect: attempt.incorrect ?? 0,
      unanswered: attempt.unanswered ?? 0,
      completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
      questions: questions.map((revision, index) => ({
        id: revision.question_id,
        text: { en: revision.text_en, ne: revision.text_ne },
        hint: revision.hint_en === null ? null : { en: revision.hint_en, ne: revision.hint_ne },
        topic: revision.topic,
        image: reportImage(revision.image_svg, revision.image_caption_en, revision.image_caption_ne),
        options: inDrawnOrder(revision.options, optionOrder[index]).map((option) => ({
          id: option.id,
          text: { en: option.text_en, ne: option.text_ne },
          is_correct: option.is_correct === 1,
          image: reportImage(option.image_svg, option.image_caption_en, option.image_caption_ne),
        })),
      })),
      answers: questions.map((revision) => ({
        question: revision.question_id,
        selected_option: answers.get(revision.question_id) ?? null,
      })),
    }
  }

  return { listResults, getReport }
}

export type ResultsService = ReturnType<typeof createResultsService>
