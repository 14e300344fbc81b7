import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { Conflict } from '../http/errors'
import { bankMessages } from '@quiz/contracts'
import { fillDraws, type DrawFilter } from './draws'
import { bankVersion, matchingQuestionIds } from './draws.repository'
import type { RandomInt } from '../lib/random'
import { randomInt } from 'node:crypto'
import { lastShown } from './question-shows.repository'
import { shuffled } from '../lib/random'
import { chooseSizes, wholePassages } from './passage-draws'

// Unseen first, least slack first, a flow when greedy fails: docs/decisions/029 "In the code".
export async function drawQuestions(
  trx: Kysely<DB>,
  userId: number | null,
  draws: readonly { itemId: number; draw: DrawFilter }[],
  fixedQuestionIds: ReadonlySet<number>,
  random: RandomInt = (max) => randomInt(max),
  poolOf: (trx: Kysely<DB>, draw: DrawFilter) => Promise<readonly number[]> = matchingQuestionIds,
  lastShownOf: typeof lastShown = lastShown,
): Promise<Map<number, number[]>> {
  const passageDraws = draws.filter(({ draw }) => draw.passages)
  if (passageDraws.length > 0) {
    const wholes = await drawPassages(trx, userId, passageDraws, fixedQuestionIds, random, poolOf, lastShownOf)
    const lone = await drawQuestions(
      trx,
      userId,
      draws.filter(({ draw }) => !draw.passages),
      fixedQuestionIds,
      random,
      poolOf,
      lastShownOf,
    )
    return new Map(draws.map(({ itemId }) => [itemId, wholes.get(itemId) ?? lone.get(itemId)!]))
  }
  const pools: number[][] = []
  for (const { draw } of draws) {
    pools.push((await poolOf(trx, draw)).filter((id) => !fixedQuestionIds.has(id)))
  }
  const everyId = [...new Set(pools.flat())]
  const shown = userId === null ? new Map<number, number>() : await lastShownOf(trx, userId, everyId)
  // Tie keys only for compared questions: a bank of 10,000 would cost 10,000 CSPRNG draws per start.
  const tie = new Map<number, number>()
  const tieOf = (id: number) => {
    let key = tie.get(id)
    if (key === undefined) tie.set(id, (key = random(2 ** 30)))
    return key
  }
  const rank = (a: number, b: number) => (shown.get(a) ?? -1) - (shown.get(b) ?? -1) || tieOf(a) - tieOf(b) || a - b

  const best = (candidates: number[], want: number) => {
    const unseen = candidates.filter((id) => !shown.has(id))
    const chosen: number[] = []
    for (let i = 0; i < unseen.length && chosen.length < want; i++) {
      const j = i + random(unseen.length - i)
      ;[unseen[i], unseen[j]] = [unseen[j]!, unseen[i]!]
      chosen.push(unseen[i]!)
    }
    if (chosen.length < want) {
      const seen = candidates.filter((id) => shown.has(id)).sort(rank)
      chosen.push(...seen.slice(0, want - chosen.length))
    }
    return chosen
  }

  const order = draws
    .map((_, index) => index)
    .sort((a, b) => pools[a]!.length - draws[a]!.draw.count - (pools[b]!.length - draws[b]!.draw.count))
  const taken = new Set<number>()
  const picks = new Map<number, number[]>()
  let greedyFilled = true
  for (const index of order) {
    const want = draws[index]!.draw.count
    const chosen = best(
      pools[index]!.filter((id) => !taken.has(id)),
      want,
    )
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

// Whole passages, one draw after another (a lone draw never takes a passage's question, so they cannot meet):
// unseen passages first, then at random; a passage counts as seen when any of its questions was (docs/decisions/117).
async function drawPassages(
  trx: Kysely<DB>,
  userId: number | null,
  draws: readonly { itemId: number; draw: DrawFilter }[],
  fixedIds: ReadonlySet<number>,
  random: RandomInt,
  poolOf: (trx: Kysely<DB>, draw: DrawFilter) => Promise<readonly number[]>,
  lastShownOf: typeof lastShown,
) {
  const taken = new Set(fixedIds)
  const picks = new Map<number, number[]>()
  for (const { itemId, draw } of draws) {
    const passages = shuffled(await wholePassages(trx, await poolOf(trx, draw), taken), random)
    const shown =
      userId === null
        ? new Map<number, number>()
        : await lastShownOf(
            trx,
            userId,
            passages.flatMap((passage) => passage.questionIds),
          )
    const seenAt = (ids: readonly number[]) => Math.max(-1, ...ids.map((id) => shown.get(id) ?? -1))
    const ordered = passages
      .map((passage) => ({ passage, seen: seenAt(passage.questionIds) }))
      .sort((a, b) => a.seen - b.seen)
      .map(({ passage }) => passage)
    const chosen = chooseSizes(
      ordered.map((passage) => passage.questionIds.length),
      draw.count,
    )
    if (!chosen) throw new Conflict(bankMessages.paperUnavailable, 'paper_unavailable')
    const ids = chosen.flatMap((index) => ordered[index]!.questionIds)
    for (const id of ids) taken.add(id)
    picks.set(itemId, ids)
  }
  return picks
}

// Kept under the bank's version, and why a deletion calls `forget`: docs/decisions/029 "In the code".
export function createDrawPools() {
  const pools = new Map<string, readonly number[]>()
  let version: number | null = null

  return {
    async poolOf(trx: Kysely<DB>, draw: DrawFilter): Promise<readonly number[]> {
      const key = JSON.stringify([
        draw.topic?.toLowerCase() ?? null,
        draw.tags.map((tag) => tag.toLowerCase()).sort(),
        draw.difficulty,
        draw.source?.toLowerCase() ?? null,
        draw.type,
        draw.passages,
      ])
      const current = await bankVersion(trx)
      if (current !== version) {
        pools.clear()
        version = current
      }
      let pool = pools.get(key)
      if (!pool) pools.set(key, (pool = await matchingQuestionIds(trx, draw)))
      return pool
    },
    forget() {
      pools.clear()
      version = null
    },
  }
}

export type DrawPools = ReturnType<typeof createDrawPools>
