import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { secondsOf, topTenthAttempts } from './time-vs-top.repository'

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/**
 * For `time_vs_top` of a report card (API.md, docs/decisions/111): per question, the median seconds of the top 10 %
 * of counted attempts by score (an attempt with no time recorded for a question counts 0 seconds); null under 10
 * counted attempts. Read beside the report's other reads: two statements on the quiz's attempts and one on the top
 * group's question states, a few dozen rows.
 */
export async function topSeconds(db: Kysely<DB>, quizId: number): Promise<((questionId: number) => number) | null> {
  const top = await topTenthAttempts(db, quizId)
  if (top.length === 0) return null
  const byQuestion = new Map<number, Map<number, number>>()
  for (const row of await secondsOf(db, top)) {
    const attempts = byQuestion.get(row.question_id) ?? new Map<number, number>()
    attempts.set(row.attempt_id, row.time_spent)
    byQuestion.set(row.question_id, attempts)
  }
  return (questionId) => median(top.map((id) => byQuestion.get(questionId)?.get(id) ?? 0))
}
