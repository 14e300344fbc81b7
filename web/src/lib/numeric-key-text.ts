import { keyNumberText, type NumericKey } from '@quiz/contracts/rules/numbers'
import { digitsFor } from './digits'

/** A numeric key's parts for the screens, in the language's digits: one value, a value ± tolerance, or a range. */
export type KeyText =
  | { kind: 'value'; value: string }
  | { kind: 'tolerance'; value: string; tolerance: string }
  | { kind: 'range'; min: string; max: string }

export function keyText(key: NumericKey, language: string): KeyText {
  const number = (value: number) => digitsFor(keyNumberText(value), language)
  if ('min' in key) return { kind: 'range', min: number(key.min), max: number(key.max) }
  return key.tolerance === 0
    ? { kind: 'value', value: number(key.value) }
    : { kind: 'tolerance', value: number(key.value), tolerance: number(key.tolerance) }
}
