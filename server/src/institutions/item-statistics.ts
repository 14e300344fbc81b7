import type { QuestionFlag } from '@quiz/contracts'
import type { KeyedOutcome } from '../questions/answer-keys'
import { DEFAULT_MARKS_CORRECT, DEFAULT_MARKS_WRONG } from '../questions/sections'

const DEFAULT_MARKS = { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }

// Item scores in hundredths, so every sum is an exact integer: a zero variance is exactly zero, undefined is null.

export interface StatisticsInput {
  questionIds: readonly number[]
  /** How an answer (null: none) counts under its revision's key; an `excluded` one counts in none of the figures. */
  outcomeOf: (attemptId: number, questionId: number, optionId: number | null) => KeyedOutcome
  attempts: readonly { id: number; score_hundredths: number }[]
  answers: Iterable<{ attempt_id: number; question_id: number; option_id: number }>
  /** The marks (hundredths) of a question in an attempt: its section's. +1 / -0.2 when absent. */
  marksOf?: (attemptId: number, questionId: number) => { correct: number; wrong: number }
  /**
   * A multiple or numeric question's marking in an attempt (questions/type-marks.ts), undefined for others. `share`,
   * when given, is what the facility averages (a multiple question's marks gained over its full marks).
   */
  typedMarksOf?: (attemptId: number, questionId: number) => TypedCell | undefined
}

export interface TypedCell {
  outcome: 'correct' | 'partial' | 'incorrect' | 'unanswered' | 'excluded'
  marks: number
  share?: number
}

export interface ItemFigures {
  facility: number | null
  discrimination: number | null
  unanswered: number
  optionCounts: Map<number, number>
  flags: QuestionFlag[]
}

export interface TestFigures {
  attempts: number
  mean: number | null
  median: number | null
  standard_deviation: number | null
  highest: number | null
  lowest: number | null
  cronbach_alpha: number | null
  standard_error: number | null
  scores: number[]
  items: ItemFigures[]
}

const round = (value: number, places: number) => {
  const factor = 10 ** places
  return Math.round(value * factor) / factor + 0 // + 0 turns -0 into 0
}
const ratio = (value: number | null) => (value === null ? null : round(value, 4))
const points = (hundredths: number | null) => (hundredths === null ? null : round(hundredths / 100, 2))

/** n times the sum of squared deviations: exact for integers (n Σx² − (Σx)²). */
const scaledSquares = (n: number, sum: number, sumOfSquares: number) => n * sumOfSquares - sum * sum

const UNANSWERED = 0
const RIGHT = 1
const WRONG = 2
const EXCLUDED = 3

export function computeStatistics({
  questionIds,
  outcomeOf,
  attempts,
  answers,
  marksOf = () => DEFAULT_MARKS,
  typedMarksOf,
}: StatisticsInput): TestFigures {
  const n = attempts.length
  const k = questionIds.length
  const row = new Map(attempts.map((attempt, index) => [attempt.id, index]))
  const column = new Map(questionIds.map((id, index) => [id, index]))
  // The chosen option of question j in attempt a (0: none; ids are positive 32-bit integers).
  const chosen = new Int32Array(n * k)
  const optionCounts = questionIds.map(() => new Map<number, number>())
  for (const answer of answers) {
    const a = row.get(answer.attempt_id)
    const j = column.get(answer.question_id)
    if (a === undefined || j === undefined) continue
    chosen[a * k + j] = answer.option_id
    const counts = optionCounts[j]!
    counts.set(answer.option_id, (counts.get(answer.option_id) ?? 0) + 1)
  }

  // x[a * k + j]: item score of question j in attempt a (hundredths, at most ±10,000), and how it counts.
  const x = new Int16Array(n * k)
  const state = new Uint8Array(n * k)
  // Facility shares of multiple questions (NaN elsewhere: the facility is then the share answered right).
  const share = typedMarksOf ? new Float64Array(n * k).fill(Number.NaN) : null
  for (let a = 0; a < n; a++) {
    const attemptId = attempts[a]!.id
    for (let j = 0; j < k; j++) {
      const cell = a * k + j
      const typed = typedMarksOf?.(attemptId, questionIds[j]!)
      if (typed) {
        x[cell] = typed.marks
        state[cell] =
          typed.outcome === 'correct'
            ? RIGHT
            : typed.outcome === 'excluded'
              ? EXCLUDED
              : typed.outcome === 'unanswered'
                ? UNANSWERED
                : WRONG
        if (typed.share !== undefined) share![cell] = typed.share
        continue
      }
      const outcome = outcomeOf(attemptId, questionIds[j]!, chosen[cell] || null)
      if (outcome === 'correct') {
        x[cell] = marksOf(attemptId, questionIds[j]!).correct
        state[cell] = RIGHT
      } else if (outcome === 'incorrect') {
        x[cell] = -marksOf(attemptId, questionIds[j]!).wrong
        state[cell] = WRONG
      } else state[cell] = outcome === 'excluded' ? EXCLUDED : UNANSWERED
    }
  }

  const total = new Float64Array(n)
  for (let a = 0; a < n; a++) {
    let sum = 0
    for (let j = 0; j < k; j++) sum += x[a * k + j]!
    total[a] = sum
  }
  let sumT = 0
  let sumT2 = 0
  for (let a = 0; a < n; a++) {
    sumT += total[a]!
    sumT2 += total[a]! * total[a]!
  }
  const varianceT = n >= 2 ? scaledSquares(n, sumT, sumT2) : 0

  let sumOfItemVariances = 0
  // Alpha's k: the questions that count in at least one attempt (one excluded everywhere is no item of the test).
  let countedItems = 0
  const items: ItemFigures[] = questionIds.map((_, j) => {
    // Over the attempts where the question counts; an excluded cell scores 0, so the sums are the same over all.
    let counted = 0
    let sumX = 0
    let sumX2 = 0
    let sumR = 0
    let sumR2 = 0
    let sumXR = 0
    let rightCount = 0
    let unanswered = 0
    let shareSum = 0
    let shared = false
    for (let a = 0; a < n; a++) {
      const cell = a * k + j
      if (state[cell] === EXCLUDED) continue
      counted++
      if (share && !Number.isNaN(share[cell]!)) {
        shared = true
        shareSum += share[cell]!
      }
      const item = x[cell]!
      const rest = total[a]! - item
      sumX += item
      sumX2 += item * item
      sumR += rest
      sumR2 += rest * rest
      sumXR += item * rest
      if (state[cell] === RIGHT) rightCount++
      if (state[cell] === UNANSWERED) unanswered++
    }
    if (counted > 0) countedItems++
    sumOfItemVariances += scaledSquares(n, sumX, sumX2)
    const varianceX = scaledSquares(counted, sumX, sumX2)
    const varianceR = scaledSquares(counted, sumR, sumR2)
    const facility = counted > 0 ? (shared ? shareSum : rightCount) / counted : null
    const discrimination =
      counted >= 2 && varianceX > 0 && varianceR > 0
        ? (counted * sumXR - sumX * sumR) / Math.sqrt(varianceX * varianceR)
        : null
    const flags: QuestionFlag[] = []
    if (facility !== null && facility > 0.9) flags.push('too_easy')
    if (facility !== null && facility < 0.2) flags.push('too_hard')
    if (discrimination !== null && discrimination < 0.2) flags.push('poor_discrimination')
    return {
      facility: ratio(facility),
      discrimination: ratio(discrimination),
      unanswered,
      optionCounts: optionCounts[j]!,
      flags,
    }
  })

  const alpha =
    n >= 2 && countedItems >= 2 && varianceT > 0
      ? (countedItems / (countedItems - 1)) * (1 - sumOfItemVariances / varianceT)
      : null

  const scores = attempts.map((attempt) => attempt.score_hundredths).sort((p, q) => p - q)
  let sum = 0
  let sumOfSquares = 0
  for (const score of scores) {
    sum += score
    sumOfSquares += score * score
  }
  const middle = Math.floor(n / 2)
  const median = n === 0 ? null : n % 2 === 1 ? scores[middle]! : (scores[middle - 1]! + scores[middle]!) / 2
  const sd = n >= 2 ? Math.sqrt(scaledSquares(n, sum, sumOfSquares) / (n * (n - 1))) : null
  const standardError = sd !== null && alpha !== null && alpha <= 1 ? sd * Math.sqrt(1 - alpha) : null

  return {
    attempts: n,
    mean: n > 0 ? points(sum / n) : null,
    median: points(median),
    standard_deviation: points(sd),
    highest: n > 0 ? points(scores[n - 1]!) : null,
    lowest: n > 0 ? points(scores[0]!) : null,
    cronbach_alpha: ratio(alpha),
    standard_error: points(standardError),
    scores: scores.map((score) => score / 100),
    items,
  }
}
