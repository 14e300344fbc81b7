import type { LegacyFont } from './convert'

/** Words a font's name may carry beside the family: "Preeti Bold", "Kantipur Regular", "FONTASY_HIMALI_TT". */
const styleWords = new Set(['regular', 'normal', 'bold', 'italic', 'oblique', 'tt', 'ttf', 'plain'])

/** The family as a key: lower case, without spaces, punctuation or style words. */
function familyKey(fontName: string): string {
  return fontName
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !styleWords.has(word))
    .join('')
}

const converted: Readonly<Record<string, LegacyFont>> = { preeti: 'preeti', kantipur: 'kantipur' }

/** "Preeti", "PREETI", "Preeti Bold", "Kantipur" ... -> the font we convert; any other name -> null. */
export function legacyFontOfName(fontName: string): LegacyFont | null {
  return converted[familyKey(fontName)] ?? null
}

/**
 * Legacy (non-Unicode) Nepali fonts whose keyboards differ from Preeti's: their text cannot be read with our map, so
 * an import names them instead of converting them wrongly.
 */
const unsupported: Readonly<Record<string, string>> = {
  pcsnepali: 'PCS Nepali',
  sagarmatha: 'Sagarmatha',
  himali: 'Himali',
  fontasyhimali: 'Himali',
  kanchan: 'Kanchan',
  aakriti: 'Aakriti',
}

/** "PCS NEPALI", "Sagarmatha", "Fontasy Himali TT" ... -> the font's display name; other names -> null. */
export function unsupportedLegacyFontOfName(fontName: string): string | null {
  return unsupported[familyKey(fontName)] ?? null
}
