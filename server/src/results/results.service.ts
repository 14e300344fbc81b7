import type { Progress, QuizResults, ReportAnalysis, ReportCard } from '@quiz/contracts'
import type { TokenUser } from '../http/tokens'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import { createRevisionCache } from '../questions/revision-cache'
import {
  attemptColumns,
  listAttemptAnswers,
  listAttemptQuestionStates,
  type AttemptLifecycle,
} from '../attempts/attempts.service'
import { createKeyWithholding, uploadsWithheld, type KeyQuiz } from '../attempts/withheld-keys.service'
import { toScore } from '../questions/scoring'
import { toStanding } from '../questions/standings'
import { findAnswerKeys, keyedOutcome, type KeyedOutcome } from '../questions/answer-keys'
import { challengeClosesAt, findReportChallenges } from '../challenges/flags.service'
import {
  attemptSections,
  DEFAULT_MARKS_CORRECT,
  DEFAULT_MARKS_WRONG,
  marksByPlace,
  maxScoreHundredths,
  sectionIndexes,
  type AttemptSection,
} from '../questions/sections'
import {
  findAttemptOfLearner,
  findRevisionKeys,
  findWrittenParts,
  findWrittenPartsOfLearner,
  listFinishedAnswers,
  listFinishedAttempts,
  listFinishedAttemptsOldestFirst,
  type WrittenPartRow,
} from './results.repository'
import { findCountedAttemptScore, findTallyStanding } from '../outcomes/outcomes.service'
import { toReportQuestion, toReportRevision, withoutKey } from './report-questions'

export function createResultsService({
  database,
  clock,
  lifecycle,
}: Pick<AppContext, 'database' | 'clock'> & { lifecycle: AttemptLifecycle }) {
  const { db } = database
  const reportRevisions = createRevisionCache(toReportRevision, { maxChars: REPORT_REVISION_CHARS })
  const withholding = createKeyWithholding({ graceMs: lifecycle.graceMs })

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
    const [questions, answers, states, standing, keys, challenges, heldKey, written] = await Promise.all([
      reportRevisions.get(db, revisionIds),
      listAttemptAnswers(db, attempt.id),
      listAttemptQuestionStates(db, attempt.id),
      findTallyStanding(db, attempt.quiz_id, attempt.score_hundredths ?? 0),
      findAnswerKeys(db, revisionIds),
      findReportChallenges(db, user.id, attempt.id, revisionIds),
      withholding.attemptKeyWithheld(db, attempt, quizOf(attempt), now),
      findWrittenParts(db, [attempt.id]),
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
            answers.get(revision.questionId) ?? null,
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
      questions: questions.map((revision, index) => {
        const question = toReportQuestion(revision, optionOrder[index], keys.get(revisionIds[index]!))
        return withheld ? withoutKey(question) : question
      }),
      answers: questions.map((revision, index) => ({
        question: revision.questionId,
        selected_option: answers.get(revision.questionId) ?? null,
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
      max_score: toScore(maxScoreHundredths(sections) - excludedHundredths(outcomes)),
      // A section's tally tells which of its answers were right (all of them in a section of one question).
      sections: withheld ? [] : sectionTallies(sections, outcomes),
    }
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
    const excludedOf = new Map<number, number>()
    const chosen = new Map(answerRows.map((row) => [`${row.attempt_id}:${row.question_id}`, row.option_id]))
    const outcomes: TopicOutcome[] = []
    const sectionsOf = new Map(attempts.map((attempt) => [attempt.id, attempt.sections]))
    for (const [attemptId, revisionIds] of paperOf) {
      const marks = marksByPlace(attemptSections(sectionsOf.get(attemptId), revisionIds.length))
      revisionIds.forEach((revisionId, place) => {
        const key = keys.get(revisionId)
        if (!key) return
        const selected = chosen.get(`${attemptId}:${key.question_id}`) ?? null
        const outcome =
          key.type === 'written' ? 'excluded' : keyedOutcome(selected, key.correct_option_id, decided.get(revisionId))
        if (outcome === 'excluded') {
          excludedOf.set(attemptId, (excludedOf.get(attemptId) ?? 0) + (marks[place] ?? DEFAULT_MARKS).correct)
          return
        }
        if (withheld.has(attemptId)) return
        outcomes.push({ topic: key.topic, marks: DEFAULT_MARKS, outcome })
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

const quizOf = (row: Omit<KeyQuiz, 'id' | 'status'> & { quiz_id: number; quiz_status: string }): KeyQuiz => ({
  ...row,
  id: row.quiz_id,
  status: row.quiz_status,
})

type Outcome = KeyedOutcome
interface TopicOutcome {
  topic: string
  marks: { correct: number; wrong: number }
  outcome: Outcome
}

const DEFAULT_MARKS = { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }

/** The report cards' revisions kept per process, in characters of content: some hundreds of papers. */
const REPORT_REVISION_CHARS = 16 * 1024 * 1024

function writtenPartOf(part: WrittenPartRow | undefined): Pick<ReportCard, 'marking' | 'written'> {
  if (!part) return { marking: 'none', written: null }
  return {
    marking: part.released === part.total ? 'released' : 'pending',
    written: { ...part, marks: toScore(part.marks), max_marks: toScore(part.max_marks) },
  }
}

function sectionTallies(
  sections: readonly AttemptSection[],
  outcomes: readonly TopicOutcome[],
): ReportCard['sections'] {
  const indexOf = sectionIndexes(sections)
  return sections.map((section, index) => {
    const mine = outcomes.filter((_, place) => indexOf[place] === index)
    const count = (outcome: Outcome) => mine.filter((item) => item.outcome === outcome).length
    return {
      title: { en: section.title_en, ne: section.title_ne },
      score: toScore(scoreOf(mine)),
      max_score: toScore(section.count * section.marks_correct - excludedHundredths(mine)),
      correct: count('correct'),
      incorrect: count('incorrect'),
      unanswered: count('unanswered'),
    }
  })
}

const scoreOf = (outcomes: readonly TopicOutcome[]) =>
  outcomes.reduce(
    (sum, item) =>
      sum + (item.outcome === 'correct' ? item.marks.correct : item.outcome === 'incorrect' ? -item.marks.wrong : 0),
    0,
  )

const excludedHundredths = (outcomes: readonly TopicOutcome[]) =>
  outcomes.reduce((sum, item) => sum + (item.outcome === 'excluded' ? item.marks.correct : 0), 0)

/** Tallies per topic in order of first appearance; questions without a topic (stored as '') go under null. */
export function topicTally(outcomes: readonly TopicOutcome[]): ReportAnalysis['topics'] {
  const byTopic = new Map<string, { correct: number; incorrect: number; unanswered: number; hundredths: number }>()
  for (const item of outcomes) {
    if (item.outcome === 'excluded') continue
    let tally = byTopic.get(item.topic)
    if (!tally) byTopic.set(item.topic, (tally = { correct: 0, incorrect: 0, unanswered: 0, hundredths: 0 }))
    tally[item.outcome]++
    tally.hundredths += scoreOf([item])
  }
  return [...byTopic].map(([topic, { hundredths, ...tally }]) => ({
    topic: topic === '' ? null : topic,
    ...tally,
    score: toScore(hundredths),
  }))
}
