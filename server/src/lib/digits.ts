const DEVANAGARI_DIGITS = '०१२३४५६७८९'

/** Latin digits to Devanagari ones, as Nepali text writes them (WEB.md): "Rs 500" -> "Rs ५००". */
export function toDevanagariDigits(text: string) {
  return text.replace(/[0-9]/g, (digit) => DEVANAGARI_DIGITS[Number(digit)]!)
}
