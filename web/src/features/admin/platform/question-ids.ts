import { fromDevanagariDigits } from '../../../lib/digits'

/** "12, 15 31" (Latin or Devanagari digits) as the platform bank question ids in order; null when anything else. */
export function readQuestionIds(text: string): number[] | null {
  const pieces = fromDevanagariDigits(text)
    .split(/[\s,;]+/)
    .filter(Boolean)
  if (pieces.length === 0 || pieces.some((piece) => !/^\d{1,10}$/.test(piece))) return null
  return pieces.map(Number)
}
