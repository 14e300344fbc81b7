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

export { canMake, chooseSizes } from '@quiz/contracts/rules/passage-sizes'

export type PassageDraw = { itemId: number; draw: DrawFilter }
