import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import type { DrawFilter } from '../questions/draws'
import { passageOfQuestions, questionIdsOf } from './passages.repository'

export interface PoolPassage {
  passageId: number
  questionIds: readonly number[]
}

/**
 * The whole passages a `passages: true` draw may take: every live question of the passage is in the draw's pool
 * (`matching`, its filters' questions) and none is already in the paper.
 */
export async function wholePassages(
  db: Kysely<DB>,
  matching: readonly number[],
  taken: ReadonlySet<number>,
): Promise<PoolPassage[]> {
  const membership = await passageOfQuestions(db, matching)
  const members = await questionIdsOf(db, [...new Set(membership.values())])
  const inPool = new Set(matching)
  return [...members]
    .filter(([, ids]) => ids.length > 0 && ids.every((id) => inPool.has(id) && !taken.has(id)))
    .map(([passageId, questionIds]) => ({ passageId, questionIds }))
}

/** Whether whole passages of these sizes make exactly `count` questions (a subset sum; counts are at most 500). */
export function canMake(sizes: readonly number[], count: number): boolean {
  return chooseSizes(sizes, count) !== null
}

/**
 * The indexes of passages making exactly `count`, the earliest of `sizes`' order preferred (the caller puts unseen
 * and shuffled passages first); null when none does.
 */
export function chooseSizes(sizes: readonly number[], count: number): number[] | null {
  // fromHere[i][s]: passages i.. can make s.
  const fromHere: Uint8Array[] = Array.from({ length: sizes.length + 1 }, () => new Uint8Array(count + 1))
  fromHere[sizes.length]![0] = 1
  for (let i = sizes.length - 1; i >= 0; i--) {
    const size = sizes[i]!
    for (let s = 0; s <= count; s++)
      fromHere[i]![s] = fromHere[i + 1]![s]! || (s >= size && fromHere[i + 1]![s - size]!) ? 1 : 0
  }
  if (!fromHere[0]![count]) return null
  const chosen: number[] = []
  let left = count
  for (let i = 0; i < sizes.length && left > 0; i++) {
    const size = sizes[i]!
    if (size <= left && fromHere[i + 1]![left - size]) {
      chosen.push(i)
      left -= size
    }
  }
  return chosen
}

export type PassageDraw = { itemId: number; draw: DrawFilter }
