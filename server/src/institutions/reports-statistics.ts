import type { QuizStatistics, StatisticsSelection } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { attemptColumns } from '../attempts/attempts.service'
import type { DB } from '../db/schema'
import { parseStoredMaths, richText } from '../maths/rich-text'
import { findAnswerKeys, isKeyedCorrect, keyedOutcome, type AnswerKey } from '../questions/answer-keys'
import { findRevisions } from '../questions/question-revisions.repository'
import { toScoredQuestion } from '../questions/scored-question'
import { markQuestion, sectionMarks as typedSectionMarks, toScore, type AnswerValue } from '../questions/scoring'
import { attemptSections, marksByPlace, sectionIndexes, type AttemptSection } from '../questions/sections'
import { computeStatistics, type TypedCell } from './item-statistics'
import {
  findQuestionsOfRevisions,
  listAllOptions,
  listAnswersOfChosenAttempts,
  listChosenScores,
  listCurrentQuestions,
  listValueAnswersOfChosenAttempts,
  listWrittenMarksOfChosenAttempts,
} from './reports.repository'

const WRONG_VALUES = 5

/**
 * Multiple and numeric answers marked as the attempt's own revision, key and section mark them (questions/scoring),
 * with each multiple option chosen and each numeric question's wrong values counted. Read only when the paper holds
 * such a question: a choice paper's statistics read what they read before.
 */
async function typedCells(
  db: Kysely<DB>,
  quizId: number,
  which: StatisticsSelection,
  typedIds: ReadonlySet<number>,
  attempts: readonly { id: number; sections: string | null; revision_ids: string }[],
) {
  const cells = new Map<string, TypedCell>()
  const picks: { attempt_id: number; question_id: number; option_id: number }[] = []
  const wrongValues = new Map<number, Map<string, number>>()
  if (typedIds.size === 0) return { cells, picks, wrongValues }
  const values = await listValueAnswersOfChosenAttempts(db, quizId, which)
  const valueOf = new Map(values.map((row) => [`${row.attempt_id}:${row.question_id}`, row.value]))
  const allRevisions = [...new Set(attempts.flatMap((attempt) => attemptColumns.revisionIds(attempt)))]
  const [revisions, keys] = await Promise.all([findRevisions(db, allRevisions), findAnswerKeys(db, allRevisions)])
  for (const attempt of attempts) {
    const revisionIds = attemptColumns.revisionIds(attempt)
    const sections = attemptSections(attempt.sections, revisionIds.length)
    const sectionOf = sectionIndexes(sections)
    revisionIds.forEach((revisionId, place) => {
      const revision = revisions.get(revisionId)
      const section = sections[sectionOf[place] ?? -1]
      if (!revision || !section || !typedIds.has(revision.question_id)) return
      if (revision.type !== 'multiple' && revision.type !== 'numeric') return
      const scored = toScoredQuestion(revision)
      const key = keys.get(revisionId)
      const stored = valueOf.get(`${attempt.id}:${revision.question_id}`)
      const value = stored === undefined ? null : (JSON.parse(stored) as AnswerValue)
      const marks = typedSectionMarks(section)
      const marked = markQuestion(key ? { ...scored, key } : scored, value, marks)
      const multiple = revision.type === 'multiple'
      cells.set(`${attempt.id}:${revision.question_id}`, {
        outcome: marked.outcome,
        marks: marked.marks,
        // Negative marks count as negative (API.md): a wrong set pulls the facility down.
        ...(multiple && { share: marks.correct > 0 ? marked.marks / marks.correct : 0 }),
      })
      if (multiple && Array.isArray(value))
        for (const optionId of value)
          picks.push({ attempt_id: attempt.id, question_id: revision.question_id, option_id: optionId })
      if (!multiple && marked.outcome === 'incorrect' && typeof value === 'string') {
        // Stored in shortest form, so one number is one string ("11" and "11.0" alike).
        const counts = wrongValues.get(revision.question_id) ?? new Map<string, number>()
        counts.set(value, (counts.get(value) ?? 0) + 1)
        wrongValues.set(revision.question_id, counts)
      }
    })
  }
  return { cells, picks, wrongValues }
}

const mostFrequent = (counts: ReadonlyMap<string, number> | undefined) =>
  [...(counts ?? [])]
    .sort(([a, m], [b, n]) => n - m || Number(a) - Number(b))
    .slice(0, WRONG_VALUES)
    .map(([value, count]) => ({ value, count }))

/** Its section's marks (API.md "Papers"); attempts whose sections all mark alike need no lookup. */
async function sectionMarks(
  db: Kysely<DB>,
  attempts: readonly { id: number; sections: string | null; revision_ids: string }[],
) {
  const uniform = new Map<number, { correct: number; wrong: number }>()
  const mixed = new Map<number, { revisionIds: number[]; sections: readonly AttemptSection[] }>()
  for (const attempt of attempts) {
    const revisionIds = attemptColumns.revisionIds(attempt)
    const sections = attemptSections(attempt.sections, revisionIds.length)
    const first = sections[0]
    if (!first || sections.every((s) => s.marks_correct === first.marks_correct && s.marks_wrong === first.marks_wrong))
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
  db: Kysely<DB>,
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

export async function quizStatistics(
  db: Kysely<DB>,
  quizId: number,
  which: StatisticsSelection,
): Promise<QuizStatistics> {
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
  const dropped = await droppedKeysHeld(db, attempts, keys)
  const typedIds = new Set(
    questions.filter((question) => question.type === 'multiple' || question.type === 'numeric').map(({ id }) => id),
  )
  const typed = await typedCells(db, quizId, which, typedIds, attempts)
  const figures = computeStatistics({
    questionIds: questions.map((question) => question.id),
    outcomeOf: (attemptId, questionId, optionId) => {
      if (optionId === null) return keyedOutcome(null, null, dropped.get(attemptId)?.get(questionId))
      const option = optionById.get(optionId)
      if (!option) return 'incorrect'
      return keyedOutcome(optionId, option.is_correct === 1 ? optionId : null, keys.get(option.revision_id))
    },
    attempts: attempts.map((attempt) => ({ id: attempt.id, score_hundredths: attempt.score_hundredths! })),
    answers: typed.picks.length > 0 ? [...answers, ...typed.picks] : answers,
    marksOf: await sectionMarks(db, attempts),
    ...(typedIds.size > 0 && {
      typedMarksOf: (attemptId: number, questionId: number) =>
        typedIds.has(questionId) ? typed.cells.get(`${attemptId}:${questionId}`) : undefined,
    }),
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
        type: question.type === 'multiple' || question.type === 'numeric' ? question.type : ('choice' as const),
        ...(question.type === 'numeric' && { wrong_values: mostFrequent(typed.wrongValues.get(question.id)) }),
      }
    }),
  }
}
