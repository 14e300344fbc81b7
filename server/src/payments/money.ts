// Integer paisa everywhere; rupees are converted without a float, so an amount can only match exactly.

export function paisaToRupees(paisa: number): string {
  if (!Number.isSafeInteger(paisa) || paisa < 0) throw new RangeError(`not an amount in paisa: ${paisa}`)
  const rupees = Math.floor(paisa / 100)
  const rest = paisa % 100
  return rest === 0 ? String(rupees) : `${rupees}.${String(rest).padStart(2, '0')}`
}

// A third non-zero decimal is another amount, not a rounding; a JSON number's shortest form is exact.
export function rupeesToPaisa(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value
  if (typeof text !== 'string') return null
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(text.trim())
  if (!match) return null
  const whole = match[1]!.replaceAll(',', '')
  const decimals = (match[2] ?? '').replace(/0+$/, '')
  if (decimals.length > 2 || whole.length > 13) return null
  return Number(whole) * 100 + Number(decimals.padEnd(2, '0'))
}
