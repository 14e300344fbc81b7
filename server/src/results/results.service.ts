import type { Progress, QuizResults, ReportAnalysis, ReportCard, ReportImage } from '@quiz/contracts'
import type { TokenUser } from '../http/tokens'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import { findRevisions, toImage } from '../questions/question-revisions.repository'
import { listAttemptAnswers, listAttemptQuestionStates, type AttemptLifecycle } from '../attempts/attempts.service'
import { inDrawnOrder } from '../questions/question-papers'
import { toScore } from '../questions/scoring'
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
  findFirstAttemptScore,
  findFirstAttemptStanding,
  findRevisionKeys,
  listFinishedAnswers,
  listFinishedAttempts,
  listFinishedAttemptsOldestFirst,
} from './results.repository'

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
    const [revisions, answers, states, standing] = await Promise.all([
      findRevisions(db, revisionIds),
      listAttemptAnswers(db, attempt.id),
      listAttemptQuestionStates(db, attempt.id),
      findFirstAttemptStanding(db, attempt.quiz_id, attempt.score_hundredths ?? 0),
    ])
    // Rank and percentile count the *other* learners: the learner's own first attempt leaves the counts (for a
    // first attempt it is this score, neither above nor below it).
    const ownFirst =
      attempt.attempt_number === 1
        ? attempt.score_hundredths
        : await findFirstAttemptScore(db, user.id, attempt.quiz_id)
    const score = attempt.score_hundredths ?? 0
    if (ownFirst !== undefined && ownFirst !== null) {
      if (ownFirst > score) standing.above--
      if (ownFirst < score) standing.below--
    }
    const stateOf = new Map(states.map((state) => [state.question_id, state]))
    const sections = attemptSections(attempt.sections, revisionIds.length)
    const marks = marksByPlace(sections)
    const questions = revisionIds.map((revisionId) => {
      const revision = revisions.get(revisionId)
      if (!revision) throw new Error(`question revision ${revisionId} is missing`)
      return revision
    })
    const outcomes = questions.map((revision, index) => ({
      topic: revision.topic,
      marks: marks[index] ?? DEFAULT_MARKS,
      outcome: outcomeOf(
        answers.get(revision.question_id) ?? null,
        revision.options.find((option) => option.is_correct === 1)?.id ?? null,
      ),
    }))
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
        marked: stateOf.get(revision.question_id)?.marked === 1,
        time_spent_seconds: stateOf.get(revision.question_id)?.time_spent ?? 0,
      })),
      analysis: {
        topics: topicTally(outcomes),
        // The marks lost: each wrong answer's section's marks_wrong.
        negative_marks: toScore(
          outcomes.reduce((sum, item) => sum + (item.outcome === 'incorrect' ? item.marks.wrong : 0), 0),
        ),
        ...toStanding(attempt.score_hundredths ?? 0, standing),
      },
      max_score: toScore(maxScoreHundredths(sections)),
      sections: sectionTallies(sections, outcomes),
    }
  }

  /** Every finished attempt, oldest first, and the learner's totals per topic over all of them. */
  async function getProgress(user: TokenUser): Promise<Progress> {
    await lifecycle.settleExpired(user.id)
    const [attempts, answerRows] = await Promise.all([
      listFinishedAttemptsOldestFirst(db, user.id),
      listFinishedAnswers(db, user.id),
    ])
    const paperOf = new Map(attempts.map((attempt) => [attempt.id, JSON.parse(attempt.revision_ids) as number[]]))
    const keys = new Map(
      (await findRevisionKeys(db, [...paperOf.values()].flat())).map((key) => [key.id, key] as const),
    )
    const chosen = new Map(answerRows.map((row) => [`${row.attempt_id}:${row.question_id}`, row.option_id]))
    const outcomes: TopicOutcome[] = []
    for (const [attemptId, revisionIds] of paperOf) {
      for (const revisionId of revisionIds) {
        const key = keys.get(revisionId)
        if (!key) continue
        const selected = chosen.get(`${attemptId}:${key.question_id}`) ?? null
        outcomes.push({ topic: key.topic, marks: DEFAULT_MARKS, outcome: outcomeOf(selected, key.correct_option_id) })
      }
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
            maxScoreHundredths(
              attemptSections(attempt.sections, (JSON.parse(attempt.revision_ids) as number[]).length),
            ),
          ),
          total_questions: correct + incorrect + unanswered,
          correct,
          incorrect,
          unanswered,
          completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
        }
      }),
      topics,
    }
  }

  return { listResults, getReport, getProgress }
}

export type ResultsService = ReturnType<typeof createResultsService>

type Outcome = 'correct' | 'incorrect' | 'unanswered'
interface TopicOutcome {
  topic: string
  /** The question's section's marks, in hundredths. */
  marks: { correct: number; wrong: number }
  outcome: Outcome
}

const DEFAULT_MARKS = { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }

/** Each section's score, most it could score and tallies, from its questions' outcomes in paper order. */
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
      max_score: toScore(section.count * section.marks_correct),
      correct: count('correct'),
      incorrect: count('incorrect'),
      unanswered: count('unanswered'),
    }
  })
}

/** Integer hundredths: right answers add their marks, wrong ones take theirs off. */
const scoreOf = (outcomes: readonly TopicOutcome[]) =>
  outcomes.reduce(
    (sum, item) =>
      sum + (item.outcome === 'correct' ? item.marks.correct : item.outcome === 'incorrect' ? -item.marks.wrong : 0),
    0,
  )

const outcomeOf = (selected: number | null, correctOptionId: number | null): Outcome =>
  selected === null ? 'unanswered' : selected === correctOptionId ? 'correct' : 'incorrect'

/** Tallies per topic in order of first appearance; questions without a topic (stored as '') go under null. */
export function topicTally(outcomes: readonly TopicOutcome[]): ReportAnalysis['topics'] {
  const byTopic = new Map<string, { correct: number; incorrect: number; unanswered: number; hundredths: number }>()
  for (const item of outcomes) {
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

/** Rank, percentile, average and highest of API.md "Analysis and practice", from the first-attempt standing. */
export function toStanding(
  scoreHundredths: number,
  standing: Awaited<ReturnType<typeof findFirstAttemptStanding>>,
): Pick<ReportAnalysis, 'participants' | 'rank' | 'percentile' | 'average_score' | 'highest_score'> {
  // The learner's own first attempt is finished whenever any of their attempts is, so participants >= 1.
  const participants = Math.max(1, standing.participants)
  const others = participants - 1
  return {
    participants,
    rank: 1 + standing.above,
    // Hundredths of a percent, rounded half up, so the figure is exact to 2 decimals.
    percentile: others === 0 ? 100 : Math.round((standing.below * 10_000) / others) / 100,
    average_score:
      standing.participants === 0
        ? toScore(scoreHundredths)
        : toScore(roundHalfAwayFromZero(standing.sumHundredths / standing.participants)),
    highest_score: standing.participants === 0 ? toScore(scoreHundredths) : toScore(standing.highestHundredths),
  }
}

const roundHalfAwayFromZero = (value: number) => Math.sign(value) * Math.round(Math.abs(value))
