import type { AnswerMap, AttemptInfo, ExamStateInput, SaveAnswersBody } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { ValidationFailed, type FieldErrors } from '../http/errors'
import type { Paper } from '../questions/question-papers'
import { sumTimeSpent, upsertQuestionStates, type QuestionStateChange } from './attempts.repository'

// Review marks, visits and seconds per question (API.md "Exam feel").

export function answerErrors(paper: Paper, answers: AnswerMap): FieldErrors | undefined {
  let errors: FieldErrors | undefined
  for (const [key, optionId] of Object.entries(answers)) {
    const question = paper.byQuestionId.get(Number(key))
    const problem = !question
      ? 'This question is not part of this quiz.'
      : optionId !== null && !question.optionIds.has(optionId)
        ? 'This option does not belong to this question.'
        : undefined
    if (problem) (errors ??= {})[`answers.${key}`] = [problem]
  }
  return errors
}

export function examStateErrors(paper: Paper, input: ExamStateInput): FieldErrors | undefined {
  let errors: FieldErrors | undefined
  const notOnPaper = (path: string) => ((errors ??= {})[path] = ['This question is not part of this quiz.'])
  for (const key of Object.keys(input.marked ?? {}))
    if (!paper.byQuestionId.has(Number(key))) notOnPaper(`marked.${key}`)
  for (const [index, id] of (input.visited ?? []).entries())
    if (!paper.byQuestionId.has(id)) notOnPaper(`visited.${index}`)
  for (const key of Object.keys(input.time_spent ?? {}))
    if (!paper.byQuestionId.has(Number(key))) notOnPaper(`time_spent.${key}`)
  return errors
}

export const hasExamState = (input: ExamStateInput) =>
  Object.keys(input.marked ?? {}).length > 0 ||
  (input.visited ?? []).length > 0 ||
  Object.values(input.time_spent ?? {}).some((seconds) => seconds > 0)

/** Slack on the cap of time spent: a report sent as the clock ticks may round a second up on each side. */
export const TIME_SPENT_SLACK_SECONDS = 5

// Seconds beyond the cap are dropped (a fast device clock); on PostgreSQL the attempt's lock makes it one step.
export async function storeExamState(
  trx: Kysely<DB>,
  attempt: Pick<AttemptRow, 'id' | 'started_at'>,
  input: ExamStateInput,
  now: number,
): Promise<void> {
  const changes = new Map<number, QuestionStateChange>()
  const change = (questionId: number) => {
    let entry = changes.get(questionId)
    if (!entry) changes.set(questionId, (entry = { questionId }))
    return entry
  }
  for (const [key, marked] of Object.entries(input.marked ?? {})) change(Number(key)).marked = marked
  for (const questionId of input.visited ?? []) change(questionId).visited = true
  const times = Object.entries(input.time_spent ?? {})
    .map(([key, seconds]) => [Number(key), seconds] as const)
    .filter(([, seconds]) => seconds > 0)
    .sort(([a], [b]) => a - b)
  if (times.length > 0) {
    const cap = Math.max(0, Math.floor((now - attempt.started_at) / 1000)) + TIME_SPENT_SLACK_SECONDS
    let budget = Math.max(0, cap - (await sumTimeSpent(trx, attempt.id)))
    for (const [questionId, seconds] of times) {
      const accepted = Math.min(seconds, budget)
      if (accepted === 0) break
      budget -= accepted
      change(questionId).seconds = accepted
    }
  }
  await upsertQuestionStates(trx, attempt.id, [...changes.values()])
}

export function toExamState(
  paper: Paper,
  rows: readonly { question_id: number; marked: number; visited: number; time_spent: number }[],
): Pick<AttemptInfo, 'marked' | 'visited' | 'time_spent'> {
  const byQuestion = new Map(rows.map((row) => [row.question_id, row]))
  const marked: number[] = []
  const visited: number[] = []
  const timeSpent: Record<string, number> = {}
  for (const { questionId } of paper.questions) {
    const row = byQuestion.get(questionId)
    if (!row) continue
    if (row.marked === 1) marked.push(questionId)
    if (row.visited === 1) visited.push(questionId)
    if (row.time_spent > 0) timeSpent[questionId] = row.time_spent
  }
  return { marked, visited, time_spent: timeSpent }
}

export const answerEntries = (answers: AnswerMap) =>
  Object.entries(answers).map(([key, optionId]) => [Number(key), optionId] as const)

export function invalidExamState(paper: Paper, input: ExamStateInput) {
  const errors = {
    ...answerErrors(paper, (input as SaveAnswersBody).answers ?? {}),
    ...examStateErrors(paper, input),
  }
  return Object.keys(errors).length > 0
    ? new ValidationFailed(errors, 'Some answers, marks or times do not belong to this quiz.')
    : undefined
}
