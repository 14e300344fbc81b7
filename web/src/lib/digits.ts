const DEVANAGARI_DIGITS = '०१२३४५६७८९'

/** Latin digits to Devanagari ones: "2026-11" -> "२०२६-११". */
export function toDevanagariDigits(text: string) {
  return text.replace(/[0-9]/g, (digit) => DEVANAGARI_DIGITS[Number(digit)]!)
}

/** Digits as the language writes them (WEB.md): Devanagari in Nepali, Latin in English. */
export const digitsFor = (text: string, language: string) => (language === 'ne' ? toDevanagariDigits(text) : text)

/** Devanagari digits to Latin ones, for fields that store digits typed on a Nepali keyboard: "९८४" -> "984". */
export function fromDevanagariDigits(text: string) {
  return text.replace(/[०-९]/g, (digit) => String(DEVANAGARI_DIGITS.indexOf(digit)))
}
