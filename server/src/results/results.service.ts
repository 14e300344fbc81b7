import type { Progress, QuizResults } from '@quiz/contracts'
import type { TokenUser } from '../http/tokens'
import type { AppContext } from '../context'
import { toIso } from '../lib/clock'
import { attemptColumns, type AttemptLifecycle } from '../attempts/attempts.service'
import { createKeyWithholding } from '../attempts/withheld-keys.service'
import { markQuestion, sectionMarks, toScore, type AnswerValue, type ScoredQuestion } from '../questions/scoring'
import { findAnswerKeys } from '../questions/answer-keys'
import { findRevisions } from '../questions/question-revisions.repository'
import { attemptSections, maxScoreHundredths, sectionIndexes } from '../questions/sections'
import { toScoredQuestion } from '../questions/scored-question'
import {
  findRevisionKeys,
  findWrittenPartsOfLearner,
  listFinishedAnswers,
  listFinishedAttempts,
  listFinishedAttemptsOldestFirst,
} from './results.repository'
import { createReportCard } from './report-card'
import { DEFAULT_MARKS, quizOf, topicTally, writtenPartOf, type TopicOutcome } from './report-tallies'

export function createResultsService(deps: Pick<AppContext, 'database' | 'clock'> & { lifecycle: AttemptLifecycle }) {
  const { database, clock, lifecycle } = deps
  const { db } = database
  const withholding = createKeyWithholding({ graceMs: lifecycle.graceMs })
  const { getReport } = createReportCard(deps, withholding)

  async function listResults(user: TokenUser): Promise<QuizResults[]> {
    await lifecycle.settleExpired(user.id)
    const byQuiz = new Map<number, QuizResults & { latest: number }>()
    const rows = await listFinishedAttempts(db, user.id)
    const written = await findWrittenPartsOfLearner(db, user.id)
    for (const row of rows) {
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
        ranked: row.ranked === 1,
        mode: row.mode,
        ...writtenPartOf(written.get(row.id)),
      })
    }
    return [...byQuiz.values()]
      .sort((a, b) => b.latest - a.latest || b.id - a.id)
      .map(({ latest: _latest, ...quiz }) => quiz)
  }

  async function getProgress(user: TokenUser): Promise<Progress> {
    await lifecycle.settleExpired(user.id)
    const [finished, answerRows, written] = await Promise.all([
      listFinishedAttemptsOldestFirst(db, user.id),
      listFinishedAnswers(db, user.id),
      findWrittenPartsOfLearner(db, user.id),
    ])
    // API.md: progress counts an attempt with written questions once all are released, its most with their marks.
    const attempts = finished.filter((attempt) => {
      const part = written.get(attempt.id)
      return part === undefined || part.released === part.total
    })
    const withheld = await withholding.withheldAttempts(
      db,
      attempts.map((attempt) => ({ ...attempt, quiz: quizOf(attempt) })),
      clock.now(),
    )
    const paperOf = new Map(attempts.map((attempt) => [attempt.id, attemptColumns.revisionIds(attempt)]))
    const allRevisions = [...paperOf.values()].flat()
    const [keyRows, decided] = await Promise.all([findRevisionKeys(db, allRevisions), findAnswerKeys(db, allRevisions)])
    const keys = new Map(keyRows.map((key) => [key.id, key] as const))
    // Multiple and numeric questions are marked from their whole revision (right set, value or range), read only
    // when a paper holds one: choice papers keep the one light read of their right options.
    const typed = await findRevisions(
      db,
      keyRows.filter((key) => key.type === 'multiple' || key.type === 'numeric').map((key) => key.id),
    )
    const excludedOf = new Map<number, number>()
    const chosen = new Map(
      answerRows.map((row) => [
        `${row.attempt_id}:${row.question_id}`,
        row.value === null ? row.option_id : (JSON.parse(row.value) as AnswerValue),
      ]),
    )
    const outcomes: TopicOutcome[] = []
    const sectionsOf = new Map(attempts.map((attempt) => [attempt.id, attempt.sections]))
    for (const [attemptId, revisionIds] of paperOf) {
      const sections = attemptSections(sectionsOf.get(attemptId), revisionIds.length)
      const sectionOf = sectionIndexes(sections)
      revisionIds.forEach((revisionId, place) => {
        const key = keys.get(revisionId)
        if (!key) return
        const section = sections[sectionOf[place] ?? -1]
        const marks = section ? { correct: section.marks_correct, wrong: section.marks_wrong } : DEFAULT_MARKS
        const full = typed.get(revisionId)
        const scored: ScoredQuestion = full
          ? toScoredQuestion(full)
          : { questionId: key.question_id, correctOptionId: key.correct_option_id }
        const decidedKey = decided.get(revisionId)
        const { outcome, marks: gained } =
          key.type === 'written'
            ? { outcome: 'excluded' as const, marks: 0 }
            : markQuestion(
                decidedKey ? { ...scored, key: decidedKey } : scored,
                chosen.get(`${attemptId}:${key.question_id}`),
                section ? sectionMarks(section) : marks,
              )
        if (outcome === 'excluded') {
          excludedOf.set(attemptId, (excludedOf.get(attemptId) ?? 0) + marks.correct)
          return
        }
        if (withheld.has(attemptId)) return
        outcomes.push({ topic: key.topic, marks, outcome, gained })
      })
    }
    const topics = topicTally(outcomes)
      .map(({ score: _score, ...topic }) => topic)
      .sort((a, b) =>
        a.topic === null ? 1 : b.topic === null ? -1 : a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0,
      )
    return {
      attempts: attempts.map((attempt) => {
        const correct = attempt.correct ?? 0
        const incorrect = attempt.incorrect ?? 0
        const unanswered = attempt.unanswered ?? 0
        return {
          attempt_id: attempt.id,
          quiz: { id: attempt.quiz_id, title: { en: attempt.title_en, ne: attempt.title_ne } },
          score: toScore(attempt.score_hundredths ?? 0),
          max_score: toScore(
            maxScoreHundredths(attemptColumns.sections(attempt)) -
              (excludedOf.get(attempt.id) ?? 0) +
              (written.get(attempt.id)?.max_marks ?? 0),
          ),
          total_questions: correct + incorrect + unanswered,
          correct,
          incorrect,
          unanswered,
          completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
          mode: attempt.mode,
        }
      }),
      topics,
    }
  }

  return { listResults, getReport, getProgress }
}

export type ResultsService = ReturnType<typeof createResultsService>
