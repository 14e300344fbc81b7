// A draw of whole passages (API.md "Question types"): the server checks and draws with it, the Paper tab says before
// saving whether a count can be made (docs/decisions/117, 131).

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
