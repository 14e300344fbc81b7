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
import { findAnswerKeys } from '../questions/answer-keys'
import { createRevisionCache } from '../questions/revision-cache'
import { markQuestion, sectionMarks, toScore, type AnswerValue } from '../questions/scoring'
import { attemptSections, maxScoreHundredths, sectionIndexes } from '../questions/sections'
import { toStanding } from '../questions/standings'
import { reportPassages } from '../questions/paper-passages'
import { toReportQuestion, toReportRevision, withoutKey } from './report-questions'
import {
  DEFAULT_MARKS,
  excludedHundredths,
  negativeHundredths,
  quizOf,
  sectionTallies,
  topicTally,
  writtenPartOf,
  type TopicOutcome,
} from './report-tallies'
import { findAttemptOfLearner, findWrittenParts } from './results.repository'
import { createTopSecondsCache } from './time-vs-top'

/** The report cards' revisions kept per process, in characters of content: some hundreds of papers. */
const REPORT_REVISION_CHARS = 16 * 1024 * 1024

export function createReportCard(
  { database, clock, lifecycle }: Pick<AppContext, 'database' | 'clock'> & { lifecycle: AttemptLifecycle },
  withholding: KeyWithholding,
) {
  const { db } = database
  const reportRevisions = createRevisionCache(toReportRevision, { maxChars: REPORT_REVISION_CHARS })
  const topSeconds = createTopSecondsCache()

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
    const [questions, answers, states, standing, keys, challenges, heldKey, written, passages] = await Promise.all([
      reportRevisions.get(db, revisionIds),
      listAttemptAnswers(db, attempt.id),
      listAttemptQuestionStates(db, attempt.id),
      findTallyStanding(db, attempt.quiz_id, attempt.score_hundredths ?? 0),
      findAnswerKeys(db, revisionIds),
      findReportChallenges(db, user.id, attempt.id, revisionIds),
      withholding.attemptKeyWithheld(db, attempt, quizOf(attempt), now),
      findWrittenParts(db, [attempt.id]),
      reportPassages(db, revisionIds),
    ])
    // Read only when the quiz's tally has moved since the last report card of the quiz.
    const top = await topSeconds(db, attempt.quiz_id, standing)
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
    const sectionOf = sectionIndexes(sections)
    const markings = sections.map(sectionMarks)
    // Each question by its type's marker with its section's marking and the decided key (questions/scoring.ts); a
    // written question counts in none of the objective tallies and leaves its section's most.
    const outcomes = questions.map((revision, index): TopicOutcome => {
      const section = sections[sectionOf[index] ?? -1]
      const marks = section ? { correct: section.marks_correct, wrong: section.marks_wrong } : DEFAULT_MARKS
      if (revision.written) return { topic: revision.topic, marks, outcome: 'excluded', gained: 0 }
      const key = keys.get(revisionIds[index]!)
      const marked = markQuestion(
        key ? { ...revision.scored, key } : revision.scored,
        answers.get(revision.questionId),
        markings[sectionOf[index] ?? -1] ?? { correct: marks.correct, wrong: marks.wrong },
      )
      return { topic: revision.topic, marks, outcome: marked.outcome, gained: marked.marks }
    })

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
      partial: outcomes.filter((item) => item.outcome === 'partial').length,
      completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
      challenge_closes_at: toIso(challengeClosesAt(attempt)),
      key_withheld: keyWithheld?.reason ?? null,
      key_withheld_until: keyWithheld?.until == null ? null : toIso(keyWithheld.until),
      adapted: adaptedOf(attempt),
      questions: questions.map((revision, index) => {
        const question = {
          ...toReportQuestion(revision, optionOrder[index], keys.get(revisionIds[index]!)),
          passage: passages.get(revisionIds[index]!) ?? null,
        }
        return withheld ? withoutKey(question) : question
      }),
      answers: questions.map((revision, index) => ({
        question: revision.questionId,
        ...answerFields(revision.type, answers.get(revision.questionId)),
        marks: revision.written || withheld ? null : toScore(outcomes[index]!.gained),
        marked: stateOf.get(revision.questionId)?.marked === 1,
        time_spent_seconds: stateOf.get(revision.questionId)?.time_spent ?? 0,
        flag: challenges.flagOf(revisionIds[index]!),
        regrade: withheld ? null : challenges.regradeOf(revision.questionId),
      })),
      analysis: {
        // A topic of one question would tell whether its chosen answer was right: none while the key is withheld.
        topics: withheld ? [] : topicTally(outcomes),
        negative_marks: toScore(negativeHundredths(outcomes)),
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

/**
 * An answer entry's chosen parts (API.md "Question types"): `selected_option` for every type (a choice answer's
 * option, else null), beside it a multiple question's `selected_option_ids` or a numeric question's `value`.
 */
function answerFields(
  type: ReportCard['questions'][number]['type'],
  answer: AnswerValue | undefined,
): Pick<ReportCard['answers'][number], 'selected_option' | 'selected_option_ids' | 'value'> {
  const selected_option = typeof answer === 'number' ? answer : null
  if (type === 'multiple')
    return { selected_option, selected_option_ids: Array.isArray(answer) && answer.length > 0 ? [...answer] : null }
  if (type === 'numeric') return { selected_option, value: typeof answer === 'string' ? answer : null }
  return { selected_option }
}
