import { Readable } from 'node:stream'
import { findAnswerKeys, isKeyedCorrect, keyedOutcome, type AnswerKey } from '../questions/answer-keys'
import type { AttemptSelection, QuizAttemptPage, QuizStatistics, StatisticsSelection } from '@quiz/contracts'
import type { AppContext } from '../context'
import { NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import { parseStoredMaths, richText } from '../maths/rich-text'
import { toScore } from '../questions/scoring'
import { attemptColumns } from '../attempts/attempts.service'
import { attemptSections, marksByPlace, type AttemptSection } from '../questions/sections'
import { csvRow, UTF8_BOM } from './csv'
import { computeStatistics } from './item-statistics'
import {
  countChosenAttempts,
  findAttemptsWithLearners,
  findReportableQuiz,
  listAllOptions,
  listAnswerPicksOfAttempts,
  listAnswersOfChosenAttempts,
  listChosenAttemptIds,
  listChosenScores,
  listCurrentQuestions,
  listWrittenMarksOfAttempts,
  listWrittenMarksOfChosenAttempts,
  findQuestionsOfRevisions,
  pageChosenAttempts,
  type ReportAttemptRow,
} from './reports.repository'

/** Rows fetched per query while the CSV streams: small enough for every database's parameter limit. */
export const CSV_BATCH = 200

export const CSV_HEADER = [
  'attempt_id',
  'username',
  'full_name',
  'phone_number',
  'attempt_number',
  'score',
  'correct',
  'incorrect',
  'unanswered',
  'started_at',
  'completed_at',
  'duration_seconds',
  'late',
  'mode',
] as const

const quizNotFound = () => new NotFound('Quiz not found.')
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

const durationSeconds = (row: Pick<ReportAttemptRow, 'started_at' | 'finished_at'>) =>
  Math.max(0, Math.round((row.finished_at! - row.started_at) / 1000))

export function createReportsService({ database }: Pick<AppContext, 'database'>) {
  const { db, dialect } = database

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

  // Pulled batch by batch as the socket drains, so 50,000 attempts never sit in memory; ids first, so a 404 comes before any byte.
  async function attemptsCsv(quizId: number, which: AttemptSelection): Promise<Readable> {
    await requireQuiz(quizId)
    const [questions, options, ids] = await Promise.all([
      listCurrentQuestions(db, quizId),
      listAllOptions(db, quizId),
      listChosenAttemptIds(db, quizId, which),
    ])
    // An option's letter is its place in its own revision's authored order, whatever order the attempt showed.
    const letters = new Map<number, string>()
    let revision = -1
    let index = 0
    for (const option of options) {
      if (option.revision_id !== revision) [revision, index] = [option.revision_id, 0]
      letters.set(option.id, LETTERS[index++]!)
    }
    const questionIds = questions.map((question) => question.id)
    const columnOf = new Map(questionIds.map((id, column) => [id, column]))
    const header = csvRow([...CSV_HEADER, ...questionIds.map((_, i) => `Q${i + 1}`)])

    async function* lines() {
      yield Buffer.from(UTF8_BOM + header)
      for (let start = 0; start < ids.length; start += CSV_BATCH) {
        const batch = ids.slice(start, start + CSV_BATCH)
        const [rows, answers, writtenMarks] = await Promise.all([
          findAttemptsWithLearners(db, batch),
          listAnswerPicksOfAttempts(db, dialect, batch),
          listWrittenMarksOfAttempts(db, batch),
        ])
        const marksById = new Map<number, typeof writtenMarks>()
        for (const marks of writtenMarks)
          marksById.set(marks.attempt_id, [...(marksById.get(marks.attempt_id) ?? []), marks])
        const byId = new Map(rows.map((row) => [row.id, row]))
        const picksById = new Map(answers.map((row) => [row.attempt_id, row.picks]))
        let text = ''
        for (const id of batch) {
          // A learner deleted since the ids were read takes their attempts along: skip, don't fail mid-download.
          const row = byId.get(id)
          if (!row) continue
          const cells = new Array<string>(questionIds.length).fill('')
          for (const pick of picksById.get(id)?.split(',') ?? []) {
            const [questionId, optionId] = pick.split(':').map(Number)
            const column = columnOf.get(questionId!)
            if (column !== undefined) cells[column] = letters.get(optionId!) ?? ''
          }
          for (const marks of marksById.get(id) ?? []) {
            const column = columnOf.get(marks.question_id)
            if (column !== undefined) cells[column] = String(toScore(marks.score_hundredths ?? 0))
          }
          text += csvRow([
            row.id,
            row.username,
            row.full_name,
            row.phone_number,
            row.attempt_number,
            toScore(row.score_hundredths!),
            row.correct,
            row.incorrect,
            row.unanswered,
            toIso(row.started_at),
            toIso(row.finished_at!),
            durationSeconds(row),
            row.late === 1,
            row.mode,
            ...cells,
          ])
        }
        yield Buffer.from(text)
      }
    }
    return Readable.from(lines(), { objectMode: false })
  }

  /** Its section's marks (API.md "Papers"); attempts whose sections all mark alike need no lookup. */
  async function sectionMarks(attempts: readonly { id: number; sections: string | null; revision_ids: string }[]) {
    const uniform = new Map<number, { correct: number; wrong: number }>()
    const mixed = new Map<number, { revisionIds: number[]; sections: readonly AttemptSection[] }>()
    for (const attempt of attempts) {
      const revisionIds = attemptColumns.revisionIds(attempt)
      const sections = attemptSections(attempt.sections, revisionIds.length)
      const first = sections[0]
      if (
        !first ||
        sections.every((s) => s.marks_correct === first.marks_correct && s.marks_wrong === first.marks_wrong)
      )
        uniform.set(attempt.id, { correct: first?.marks_correct ?? 100, wrong: first?.marks_wrong ?? 20 })
      else mixed.set(attempt.id, { revisionIds, sections })
    }
    const byQuestion = new Map<number, Map<number, { correct: number; wrong: number }>>()
    if (mixed.size > 0) {
      const allRevisions = [...new Set([...mixed.values()].flatMap((paper) => paper.revisionIds))]
      const questionOf = await findQuestionsOfRevisions(db, allRevisions)
      for (const [attemptId, paper] of mixed) {
        const marks = marksByPlace(paper.sections)
        byQuestion.set(
          attemptId,
          new Map(paper.revisionIds.map((revisionId, place) => [questionOf.get(revisionId)!, marks[place]!])),
        )
      }
    }
    return (attemptId: number, questionId: number) =>
      uniform.get(attemptId) ?? byQuestion.get(attemptId)?.get(questionId) ?? { correct: 100, wrong: 20 }
  }

  async function droppedKeysHeld(
    attempts: readonly { id: number; revision_ids: string }[],
    keys: ReadonlyMap<number, AnswerKey>,
  ) {
    const held = new Map<number, Map<number, AnswerKey>>()
    const drops = [...keys.values()].filter((key) => key.drop !== null)
    if (drops.length === 0) return held
    const questionOf = await findQuestionsOfRevisions(
      db,
      drops.map((key) => key.revisionId),
    )
    for (const attempt of attempts) {
      for (const revisionId of attemptColumns.revisionIds(attempt)) {
        const key = keys.get(revisionId)
        if (!key?.drop) continue
        const byQuestion = held.get(attempt.id) ?? new Map<number, AnswerKey>()
        byQuestion.set(questionOf.get(revisionId)!, key)
        held.set(attempt.id, byQuestion)
      }
    }
    return held
  }

  async function statistics(quizId: number, which: StatisticsSelection): Promise<QuizStatistics> {
    await requireQuiz(quizId)
    const [paper, options, attempts, answers, writtenMarks] = await Promise.all([
      listCurrentQuestions(db, quizId),
      listAllOptions(db, quizId),
      listChosenScores(db, quizId, which),
      listAnswersOfChosenAttempts(db, quizId, which),
      listWrittenMarksOfChosenAttempts(db, quizId, which),
    ])
    const numbered = paper.map((question, index) => ({ ...question, number: index + 1 }))
    const questions = numbered.filter((question) => question.type !== 'written')
    const writtenQuestions = numbered.filter((question) => question.type === 'written')
    // Decided keys (decision 036) count: an answer by its option's revision, no answer by the paper's revision.
    const keys = await findAnswerKeys(db, new Set(options.map((option) => option.revision_id)))
    const optionById = new Map(options.map((option) => [option.id, option]))
    const dropped = await droppedKeysHeld(attempts, keys)
    const figures = computeStatistics({
      questionIds: questions.map((question) => question.id),
      outcomeOf: (attemptId, questionId, optionId) => {
        if (optionId === null) return keyedOutcome(null, null, dropped.get(attemptId)?.get(questionId))
        const option = optionById.get(optionId)
        if (!option) return 'incorrect'
        return keyedOutcome(optionId, option.is_correct === 1 ? optionId : null, keys.get(option.revision_id))
      },
      attempts: attempts.map((attempt) => ({ id: attempt.id, score_hundredths: attempt.score_hundredths! })),
      answers,
      marksOf: await sectionMarks(attempts),
    })
    const optionsByRevision = new Map<number, typeof options>()
    for (const option of options) {
      const list = optionsByRevision.get(option.revision_id)
      if (list) list.push(option)
      else optionsByRevision.set(option.revision_id, [option])
    }
    const { items, ...summary } = figures
    const adminText = (question: (typeof numbered)[number]) =>
      richText({ en: question.text_en, ne: question.text_ne }, parseStoredMaths(question.maths).text, 'admin')
    return {
      ...summary,
      question_count: paper.length,
      written: writtenQuestions.map((question) => {
        const marks = writtenMarks.get(question.id)
        const marked = marks?.marked ?? 0
        return {
          id: question.id,
          number: question.number,
          text: adminText(question),
          topic: question.topic === '' ? null : question.topic,
          max_marks: toScore(question.marks ?? 0),
          marked,
          mean: marks && marked > 0 ? Math.round(marks.gained / marked) / 100 : null,
          share: marks && marks.possible > 0 ? Math.round((marks.gained / marks.possible) * 10_000) / 10_000 : null,
        }
      }),
      questions: questions.map((question, j) => {
        const item = items[j]!
        const current = optionsByRevision.get(question.revision_id) ?? []
        const counted = current.reduce((sum, option) => sum + (item.optionCounts.get(option.id) ?? 0), 0)
        const answered = [...item.optionCounts.values()].reduce((sum, count) => sum + count, 0)
        return {
          id: question.id,
          number: question.number,
          text: adminText(question),
          topic: question.topic === '' ? null : question.topic,
          facility: item.facility,
          discrimination: item.discrimination,
          unanswered: item.unanswered,
          options: current.map((option) => ({
            id: option.id,
            text: richText({ en: option.text_en, ne: option.text_ne }, parseStoredMaths(option.maths).text, 'admin'),
            is_correct: isKeyedCorrect(option.id, option.is_correct === 1, keys.get(option.revision_id)),
            count: item.optionCounts.get(option.id) ?? 0,
          })),
          other: answered - counted,
          flags: item.flags,
        }
      }),
    }
  }

  return { listAttempts, attemptsCsv, statistics }
}

export type ReportsService = ReturnType<typeof createReportsService>
