import { randomInt } from 'node:crypto'

export type RandomInt = (max: number) => number

const cryptoRandomInt: RandomInt = (max) => randomInt(max)

// Cryptographic: a learner must not predict another's paper from their own (Math.random's state can be recovered).
export function shuffled<T>(items: readonly T[], random: RandomInt = cryptoRandomInt): T[] {
  const result = [...items]
  for (let i = result.length - 1; i > 0; i--) {
    const j = random(i + 1)
    ;[result[i], result[j]] = [result[j]!, result[i]!]
  }
  return result
}
