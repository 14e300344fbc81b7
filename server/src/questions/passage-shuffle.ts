import { shuffled, type RandomInt } from '../lib/random'

/**
 * A section's questions shuffled with each passage moving as one: its questions gather at its first question's place,
 * in the passage's order, and the blocks and lone questions are shuffled (API.md "Question types").
 */
export function shuffledKeepingPassages(
  ids: readonly number[],
  passageOf: ReadonlyMap<number, { passageId: number; position: number }>,
  random?: RandomInt,
): number[] {
  const blocks: number[][] = []
  const blockOf = new Map<number, number[]>()
  for (const id of ids) {
    const membership = passageOf.get(id)
    if (!membership) {
      blocks.push([id])
      continue
    }
    let block = blockOf.get(membership.passageId)
    if (!block) {
      blockOf.set(membership.passageId, (block = []))
      blocks.push(block)
    }
    block.push(id)
  }
  const place = (id: number) => passageOf.get(id)?.position ?? 0
  for (const block of blockOf.values()) block.sort((a, b) => place(a) - place(b))
  return shuffled(blocks, random).flat()
}
