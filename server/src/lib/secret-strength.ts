import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'

// zxcvbn models what a person types and prices the rest as random: no list of patterns of our own.
let estimator: ZxcvbnFactory | undefined

// About 4 bits per character of random hex, 0 for "aaaa".
export function secretStrengthBits(secret: string): number {
  estimator ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs, maxLength: 512 })
  return estimator.check(secret).guessesLog10 * Math.log2(10)
}
