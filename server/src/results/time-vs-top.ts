import type { Kysely } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { DB } from '../db/schema'
import { secondsOf, topTenthAttempts } from './time-vs-top.repository'

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** Per question, the top group's median seconds (a question none of them spent time on: 0); null: no top group. */
export type TopSeconds = ((questionId: number) => number) | null

/**
 * For `time_vs_top` of a report card (API.md, docs/decisions/111): per question, the median seconds of the top 10 %
 * of counted attempts by score (an attempt with no time recorded for a question counts 0 seconds); null under 10
 * counted attempts. Two statements on the quiz's attempts and one on the top group's question states.
 */
export async function topSeconds(db: Kysely<DB>, quizId: number): Promise<TopSeconds> {
  const top = await topTenthAttempts(db, quizId)
  if (top.length === 0) return null
  const byQuestion = new Map<number, number[]>()
  for (const row of await secondsOf(db, top)) {
    const seconds = byQuestion.get(row.question_id) ?? []
    seconds.push(row.time_spent)
    byQuestion.set(row.question_id, seconds)
  }
  const medians = new Map<number, number>()
  for (const [questionId, seconds] of byQuestion) {
    // The top attempts without a row for the question spent 0 seconds on it.
    medians.set(questionId, median([...seconds, ...Array<number>(top.length - seconds.length).fill(0)]))
  }
  return (questionId) => medians.get(questionId) ?? 0
}

/** What moves the top group: the quiz's counted attempts and their scores, as its score tally has them. */
export interface TallyKey {
  participants: number
  sumHundredths: number
  highestHundredths: number
}

/**
 * `topSeconds` kept per quiz until the quiz's tally changes (an attempt counted, a score re-marked): reading it for
 * every report card cost a count, a sort and a thousand attempts' question states a card at 10,000 attempts (the
 * report card fell from 1,100 to 80 a second). A finished attempt's seconds never change, so the tally is the key.
 */
export function createTopSecondsCache(max = 1000) {
  const cache = new LRUCache<number, { key: string; top: Promise<TopSeconds> }>({ max })
  return function cachedTopSeconds(db: Kysely<DB>, quizId: number, tally: TallyKey): Promise<TopSeconds> {
    const key = `${tally.participants}:${tally.sumHundredths}:${tally.highestHundredths}`
    const held = cache.get(quizId)
    if (held?.key === key) return held.top
    const top = topSeconds(db, quizId)
    cache.set(quizId, { key, top })
    // A failed read is not kept: the next report card reads again.
    top.catch(() => cache.get(quizId)?.top === top && cache.delete(quizId))
    return top
  }
}
