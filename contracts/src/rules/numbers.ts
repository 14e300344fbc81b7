// What a typed number means (API.md "Question types"): one rule for the exam screen and the server, no zod, exact.
// Numbers are compared as scaled integers (BigInt), never as doubles: 3.13 lies within 3.14 ± 0.01, as on paper.

/** A numeric question's accepted answer: a value with a tolerance, or a range; ends are included. */
export type NumericKey = { value: number; tolerance: number } | { min: number; max: number }

export type ReadNumber =
  | {
      ok: true
      /** The number in its shortest form ("+11.0" and "११" -> "11"; "-0" -> "0"): how it is stored and shown. */
      text: string
    }
  | { ok: false; reason: 'empty' | 'malformed' | 'too_many_decimals' | 'too_long' }

/** Decimals an answer key's numbers may have (API.md: up to 6). */
export const KEY_DECIMALS = 6
/** `decimals` of a numeric question: 0..6, or null for any. */
export const MAX_DECIMALS = 6
/** Longer typed strings are refused before reading: nobody types a 40-digit answer. */
export const MAX_TYPED_LENGTH = 32

const DEVANAGARI_ZERO = 0x0966
// A sign (ASCII plus or minus, or the minus sign U+2212 a phone keyboard may give), digits, at most one point.
const FORM = /^([+\-\u2212]?)([0-9\u0966-\u096F]*)(?:\.([0-9\u0966-\u096F]*))?$/u

const latin = (digits: string) =>
  digits.replace(/[\u0966-\u096F]/gu, (digit) => String(digit.charCodeAt(0) - DEVANAGARI_ZERO))

/**
 * Reads what a learner typed. Surrounding spaces are ignored (a phone keyboard adds one); anything else that is not a
 * sign, digits and at most one point, with at least one digit, is malformed. `decimals` counts the digits typed
 * after the point, trailing zeros included ("11.0" has one), as the exam screen shows them.
 */
export function readNumber(typed: string, decimals: number | null = null): ReadNumber {
  const trimmed = typed.trim()
  if (trimmed === '') return { ok: false, reason: 'empty' }
  if (trimmed.length > MAX_TYPED_LENGTH) return { ok: false, reason: 'too_long' }
  const match = FORM.exec(trimmed)
  if (!match) return { ok: false, reason: 'malformed' }
  const [, sign = '', whole = '', fraction] = match
  if (whole === '' && (fraction === undefined || fraction === '')) return { ok: false, reason: 'malformed' }
  if (decimals !== null && (fraction?.length ?? 0) > decimals) return { ok: false, reason: 'too_many_decimals' }
  return { ok: true, text: shortest(sign !== '' && sign !== '+', latin(whole), latin(fraction ?? '')) }
}

function shortest(negative: boolean, whole: string, fraction: string): string {
  const integer = whole.replace(/^0+/u, '') || '0'
  const decimals = fraction.replace(/0+$/u, '')
  const body = decimals === '' ? integer : `${integer}.${decimals}`
  return negative && body !== '0' ? `-${body}` : body
}

/** A shortest-form number as an integer at `scale` decimals (the caller makes the scale at least its decimals). */
function scaled(text: string, scale: number): bigint {
  const negative = text.startsWith('-')
  const [whole = '0', fraction = ''] = (negative ? text.slice(1) : text).split('.')
  const units = BigInt(whole + fraction.padEnd(scale, '0'))
  return negative ? -units : units
}

const decimalsOf = (text: string) => text.split('.')[1]?.length ?? 0

/** A key's number (at most KEY_DECIMALS decimals) in shortest form, read from its double without float noise. */
export function keyNumberText(value: number): string {
  const fixed = value.toFixed(KEY_DECIMALS)
  const read = readNumber(fixed.startsWith('-') ? fixed : `+${fixed}`)
  if (!read.ok) throw new Error(`not a key number: ${value}`)
  return read.text
}

/** Whether a key's number has at most KEY_DECIMALS decimals (3.1415926 has too many). */
export const isKeyNumber = (value: number) =>
  Number.isFinite(value) && Math.abs(value) < 1e12 && Number(keyNumberText(value)) === value

/** Whether a number read by readNumber (its `text`) is accepted by the key: within value ± tolerance or [min, max]. */
export function acceptsNumber(key: NumericKey, text: string): boolean {
  const bounds =
    'value' in key
      ? [keyNumberText(key.value), keyNumberText(key.tolerance)]
      : [keyNumberText(key.min), keyNumberText(key.max)]
  const scale = Math.max(KEY_DECIMALS, decimalsOf(text))
  const typed = scaled(text, scale)
  if ('value' in key) {
    const centre = scaled(bounds[0]!, scale)
    const tolerance = scaled(bounds[1]!, scale)
    return typed >= centre - tolerance && typed <= centre + tolerance
  }
  return typed >= scaled(bounds[0]!, scale) && typed <= scaled(bounds[1]!, scale)
}

/** Why a typed number is refused, in words for the `invalid_number` errors at `answers.<questionId>`. */
export const numberRefusals: Record<Exclude<ReadNumber, { ok: true }>['reason'], string> = {
  empty: 'Type a number.',
  malformed: 'Type a number: an optional sign, digits and at most one decimal point.',
  too_many_decimals: 'Too many digits after the decimal point.',
  too_long: 'This number is too long.',
}
