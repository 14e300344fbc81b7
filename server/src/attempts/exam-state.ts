import type { AnswerMap, AttemptInfo, ExamStateInput, SaveAnswersBody } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { ValidationFailed, type FieldErrors } from '../http/errors'
import { numberRefusals, readNumber } from '@quiz/contracts/rules/numbers'
import type { Paper, PaperQuestion } from '../questions/question-papers'
import { sumTimeSpent, upsertQuestionStates, type AnswerEntry, type QuestionStateChange } from './attempts.repository'

// Review marks, visits and seconds per question (API.md "Exam feel").

/** Why an answer does not fit its question (API.md "Question types"), or undefined; numbers by the one number rule. */
export function answerProblem(
  question: Pick<PaperQuestion, 'type' | 'optionIds' | 'numeric'>,
  answer: AnswerMap[string],
): string | undefined {
  if (answer === null) return undefined
  const type = question.type ?? 'choice'
  if (type === 'multiple') {
    if (!Array.isArray(answer)) return answerMessages.multiple
    return answer.every((id) => question.optionIds.has(id)) ? undefined : answerMessages.notAnOption
  }
  if (type === 'numeric') {
    if (typeof answer !== 'string') return answerMessages.numeric
    const read = readNumber(answer, question.numeric?.decimals ?? null)
    return read.ok ? undefined : numberRefusals[read.reason]
  }
  if (typeof answer !== 'number') return answerMessages.choice
  return question.optionIds.has(answer) ? undefined : answerMessages.notAnOption
}

export const answerMessages = {
  notOnPaper: 'This question is not part of this quiz.',
  notAnOption: 'This option does not belong to this question.',
  choice: 'This question takes one option id.',
  multiple: 'This question takes a list of option ids.',
  numeric: 'This question takes a typed number, as a string.',
} as const

export function answerErrors(paper: Paper, answers: AnswerMap): FieldErrors | undefined {
  return answerCheck(paper, answers).errors
}

/** The answers' errors, and whether one is a number the rule refuses (400 `invalid_number` then). */
function answerCheck(paper: Paper, answers: AnswerMap): { errors?: FieldErrors; invalidNumber: boolean } {
  let errors: FieldErrors | undefined
  let invalidNumber = false
  for (const [key, answer] of Object.entries(answers)) {
    const question = paper.byQuestionId.get(Number(key))
    const problem = !question ? answerMessages.notOnPaper : answerProblem(question, answer)
    if (!problem) continue
    ;(errors ??= {})[`answers.${key}`] = [problem]
    if (question?.type === 'numeric' && typeof answer === 'string') invalidNumber = true
  }
  return { errors, invalidNumber }
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

/**
 * Answers as stored: a choice answer `[questionId, optionId]` as ever; any other answer, and every clear, also sets
 * `value` (JSON: the option ids sorted, or the number in shortest form; null), so a cleared multiple or numeric
 * answer leaves no value behind. Checked by invalidExamState first.
 */
export const answerEntries = (answers: AnswerMap): AnswerEntry[] =>
  Object.entries(answers).map(([key, answer]): AnswerEntry => {
    const questionId = Number(key)
    if (typeof answer === 'number') return [questionId, answer]
    if (answer === null) return [questionId, null, null]
    if (Array.isArray(answer))
      return [questionId, null, answer.length === 0 ? null : JSON.stringify([...new Set(answer)].sort((a, b) => a - b))]
    const read = readNumber(answer)
    return [questionId, null, read.ok ? JSON.stringify(read.text) : null]
  })

export function invalidExamState(paper: Paper, input: ExamStateInput) {
  const { errors: answers, invalidNumber } = answerCheck(paper, (input as SaveAnswersBody).answers ?? {})
  const errors = { ...answers, ...examStateErrors(paper, input) }
  if (Object.keys(errors).length === 0) return undefined
  // A number the rule refuses is named as such (API.md): the exam screen tells the learner what to retype.
  return invalidNumber
    ? new ValidationFailed(errors, 'A typed number is not one the question accepts.', 'invalid_number')
    : new ValidationFailed(errors, 'Some answers, marks or times do not belong to this quiz.')
}
