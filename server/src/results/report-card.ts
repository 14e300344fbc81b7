import { adaptedOf } from '../questions/needs-sight'
import type { ReportCard } from '@quiz/contracts'
import {
  attemptColumns,
  listAttemptAnswers,
  listAttemptQuestionStates,
  type AttemptLifecycle,
} from '../attempts/attempts.service'
import { uploadsWithheld, type KeyWithholding } from '../attempts/withheld-keys.service'
import { challengeClosesAt, findReportChallenges } from '../challenges/flags.service'
import type { AppContext } from '../context'
import type { TokenUser } from '../http/tokens'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import { findCountedAttemptScore, findTallyStanding } from '../outcomes/outcomes.service'
import { findAnswerKeys, keyedOutcome } from '../questions/answer-keys'
import { createRevisionCache } from '../questions/revision-cache'
import { toScore } from '../questions/scoring'
import { attemptSections, marksByPlace, maxScoreHundredths } from '../questions/sections'
import { toStanding } from '../questions/standings'
import { toReportQuestion, toReportRevision, withoutKey } from './report-questions'
import { DEFAULT_MARKS, excludedHundredths, quizOf, sectionTallies, topicTally, writtenPartOf } from './report-tallies'
import { findAttemptOfLearner, findWrittenParts } from './results.repository'
import { topSeconds } from './time-vs-top'

/** The report cards' revisions kept per process, in characters of content: some hundreds of papers. */
const REPORT_REVISION_CHARS = 16 * 1024 * 1024

export function createReportCard(
  { database, clock, lifecycle }: Pick<AppContext, 'database' | 'clock'> & { lifecycle: AttemptLifecycle },
  withholding: KeyWithholding,
) {
  const { db } = database
  const reportRevisions = createRevisionCache(toReportRevision, { maxChars: REPORT_REVISION_CHARS })

  async function getReport(user: TokenUser, attemptId: number): Promise<ReportCard> {
    let attempt = await findAttemptOfLearner(db, user.id, attemptId)
    if (attempt && lifecycle.isExpired(attempt, clock.now())) {
      await lifecycle.settleExpired(user.id, attempt.quiz_id)
      attempt = await findAttemptOfLearner(db, user.id, attemptId)
    }
    if (!attempt || attempt.status !== 'finished') throw new NotFound('Result not found.')

    const revisionIds = attemptColumns.revisionIds(attempt)
    const optionOrder = attemptColumns.optionOrder(attempt) ?? []
    const now = clock.now()
    const [questions, answers, states, standing, keys, challenges, heldKey, written, top] = await Promise.all([
      reportRevisions.get(db, revisionIds),
      listAttemptAnswers(db, attempt.id),
      listAttemptQuestionStates(db, attempt.id),
      findTallyStanding(db, attempt.quiz_id, attempt.score_hundredths ?? 0),
      findAnswerKeys(db, revisionIds),
      findReportChallenges(db, user.id, attempt.id, revisionIds),
      withholding.attemptKeyWithheld(db, attempt, quizOf(attempt), now),
      findWrittenParts(db, [attempt.id]),
      topSeconds(db, attempt.quiz_id),
    ])
    // Pages of written answers still being taken: the choice key would be writing help (docs/decisions/090).
    const keyWithheld = heldKey ?? uploadsWithheld(attempt, written.has(attempt.id), now)
    const withheld = keyWithheld !== null
    // Rank and percentile count the *other* learners: the learner's own counted attempt leaves the counts.
    const live = attempt.live_starts_at !== null
    const ownFirst =
      attempt.ranked === 1 && attempt.attempt_number === 1
        ? attempt.score_hundredths
        : await findCountedAttemptScore(db, user.id, attempt.quiz_id)
    const score = attempt.score_hundredths ?? 0
    const ownCounted = ownFirst !== undefined && ownFirst !== null
    if (ownCounted) {
      if (ownFirst > score) standing.above--
      if (ownFirst < score) standing.below--
    }
    const stateOf = new Map(states.map((state) => [state.question_id, state]))
    const sections = attemptSections(attempt.sections, revisionIds.length)
    const marks = marksByPlace(sections)
    // A written question counts in none of the choice tallies and leaves its section's most, as in questions/scoring.ts.
    const outcomes = questions.map((revision, index) => ({
      topic: revision.topic,
      marks: marks[index] ?? DEFAULT_MARKS,
      outcome: revision.written
        ? ('excluded' as const)
        : keyedOutcome(
            choiceAnswer(answers.get(revision.questionId)),
            revision.correctOptionId,
            keys.get(revisionIds[index]!),
          ),
    }))

    return {
      id: attempt.id,
      attempt_number: attempt.attempt_number,
      quiz: { id: attempt.quiz_id, title: { en: attempt.title_en, ne: attempt.title_ne }, live },
      ranked: attempt.ranked === 1,
      mode: attempt.mode,
      score: toScore(attempt.score_hundredths ?? 0),
      ...writtenPartOf(written.get(attempt.id)),
      correct: attempt.correct ?? 0,
      incorrect: attempt.incorrect ?? 0,
      unanswered: attempt.unanswered ?? 0,
      completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
      challenge_closes_at: toIso(challengeClosesAt(attempt)),
      key_withheld: keyWithheld?.reason ?? null,
      key_withheld_until: keyWithheld?.until == null ? null : toIso(keyWithheld.until),
      adapted: adaptedOf(attempt),
      questions: questions.map((revision, index) => {
        const question = toReportQuestion(revision, optionOrder[index], keys.get(revisionIds[index]!))
        return withheld ? withoutKey(question) : question
      }),
      answers: questions.map((revision, index) => ({
        question: revision.questionId,
        selected_option: choiceAnswer(answers.get(revision.questionId)),
        marked: stateOf.get(revision.questionId)?.marked === 1,
        time_spent_seconds: stateOf.get(revision.questionId)?.time_spent ?? 0,
        flag: challenges.flagOf(revisionIds[index]!),
        regrade: withheld ? null : challenges.regradeOf(revision.questionId),
      })),
      analysis: {
        // A topic of one question would tell whether its chosen answer was right: none while the key is withheld.
        topics: withheld ? [] : topicTally(outcomes),
        negative_marks: toScore(
          outcomes.reduce((sum, item) => sum + (item.outcome === 'incorrect' ? item.marks.wrong : 0), 0),
        ),
        ...toStanding(attempt.score_hundredths ?? 0, standing, !ownCounted),
      },
      time_vs_top: questions.map((revision) => ({
        question_id: revision.questionId,
        seconds: stateOf.get(revision.questionId)?.time_spent ?? 0,
        top_seconds: top === null ? null : top(revision.questionId),
      })),
      max_score: toScore(maxScoreHundredths(sections) - excludedHundredths(outcomes)),
      // A section's tally tells which of its answers were right (all of them in a section of one question).
      sections: withheld ? [] : sectionTallies(sections, outcomes),
    }
  }

  return { getReport }
}

// The report card reads choice answers only so far: a multiple or numeric answer is shown as none (issue 77's
// report part, docs/decisions/116).
const choiceAnswer = (answer: unknown): number | null => (typeof answer === 'number' ? answer : null)
