import type { NumericKey } from '@quiz/contracts/rules/numbers'

/** The most digit columns a grid prints: the roll number's width plus six decimals would not fit a sheet's row. */
export const MAX_NUMERIC_DIGITS = 8

export interface NumericGridSize {
  /** Digit columns before the decimal point. */
  whole: number
  /** Digit columns after it: the question's `decimals`, or as many as its accepted values need when any are allowed. */
  fraction: number
}

const decimalsOf = (value: number) => {
  const text = String(Math.abs(value))
  const point = text.indexOf('.')
  return point < 0 ? 0 : Math.min(6, text.length - point - 1)
}

/**
 * How many digit columns a numeric question's grid prints (decision 129): enough whole digits for the largest
 * accepted value's integer part (at least one), and `decimals` after the point (null: as many as the key's values
 * show). Null when the grid would be wider than MAX_NUMERIC_DIGITS: the paper is not printable.
 */
export function numericGridSize(answer: NumericKey, decimals: number | null): NumericGridSize | null {
  const ends =
    'min' in answer ? [answer.min, answer.max] : [answer.value - answer.tolerance, answer.value + answer.tolerance]
  const largest = Math.max(...ends.map((end) => Math.floor(Math.abs(end))))
  const whole = Math.max(1, String(largest).length)
  const keyValues = 'min' in answer ? [answer.min, answer.max] : [answer.value, answer.tolerance]
  const fraction = decimals ?? Math.max(...keyValues.map(decimalsOf))
  return whole + fraction > MAX_NUMERIC_DIGITS ? null : { whole, fraction }
}
