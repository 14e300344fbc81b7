const DEVANAGARI_DIGITS = '०१२३४५६७८९'

/** Latin digits to Devanagari ones: "2026-11" -> "२०२६-११". */
export function toDevanagariDigits(text: string) {
  return text.replace(/[0-9]/g, (digit) => DEVANAGARI_DIGITS[Number(digit)]!)
}

/** Digits as the language writes them (WEB.md): Devanagari in Nepali, Latin in English. */
export const digitsFor = (text: string, language: string) => (language === 'ne' ? toDevanagariDigits(text) : text)
