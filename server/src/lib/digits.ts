const DEVANAGARI_DIGITS = '०१२३४५६७८९'

export function toDevanagariDigits(text: string) {
  return text.replace(/[0-9]/g, (digit) => DEVANAGARI_DIGITS[Number(digit)]!)
}
