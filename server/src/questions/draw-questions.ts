import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { Conflict } from '../http/errors'
import { bankMessages } from '@quiz/contracts'
import { fillDraws, matchingQuestionIds, type DrawFilter } from './draws'
import type { RandomInt } from '../lib/random'
import { randomInt } from 'node:crypto'
import { lastShown } from './question-shows.repository'

/**
 * The questions each draw of a paper takes for one learner (API.md "Papers"): from its pool less the paper's fixed
 * questions and what earlier draws took, first those the learner has never been shown, then those shown longest
 * ago, ties at random. The most constrained draw (least slack) goes first; if that greedy order cannot fill every
 * draw, a flow over the pools finds a fill (so every paper that passed the admin's check fills) keeping the order
 * within each draw. No fill at all (questions deleted since) -> 409 paper_unavailable.
 */
export async function drawQuestions(
  trx: Kysely<DB>,
  userId: number | null,
  draws: readonly { itemId: number; draw: DrawFilter }[],
  fixedQuestionIds: ReadonlySet<number>,
  random: RandomInt = (max) => randomInt(max),
): Promise<Map<number, number[]>> {
  const pools: number[][] = []
  for (const { draw } of draws) {
    pools.push((await matchingQuestionIds(trx, draw)).filter((id) => !fixedQuestionIds.has(id)))
  }
  const everyId = [...new Set(pools.flat())]
  const shown = userId === null ? new Map<number, number>() : await lastShown(trx, userId, everyId)
  const tie = new Map(everyId.map((id) => [id, random(2 ** 30)]))
  const rank = (a: number, b: number) =>
    (shown.get(a) ?? -1) - (shown.get(b) ?? -1) || tie.get(a)! - tie.get(b)! || a - b

  const order = draws
    .map((_, index) => index)
    .sort((a, b) => pools[a]!.length - draws[a]!.draw.count - (pools[b]!.length - draws[b]!.draw.count))
  const taken = new Set<number>()
  const picks = new Map<number, number[]>()
  let greedyFilled = true
  for (const index of order) {
    const want = draws[index]!.draw.count
    const chosen = pools[index]!.filter((id) => !taken.has(id))
      .sort(rank)
      .slice(0, want)
    if (chosen.length < want) {
      greedyFilled = false
      break
    }
    for (const id of chosen) taken.add(id)
    picks.set(draws[index]!.itemId, chosen)
  }
  if (greedyFilled) return picks

  const fill = fillDraws(
    draws.map((draw, index) => ({ count: draw.draw.count, pool: pools[index]! })),
    rank,
  )
  if (!fill.ok) throw new Conflict(bankMessages.paperUnavailable, 'paper_unavailable')
  return new Map(draws.map((draw, index) => [draw.itemId, fill.assignment[index]!]))
}
