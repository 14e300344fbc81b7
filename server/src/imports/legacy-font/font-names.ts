import type { LegacyFont } from './convert'

const styleWords = new Set(['regular', 'normal', 'bold', 'italic', 'oblique', 'tt', 'ttf', 'plain'])

function familyKey(fontName: string): string {
  return fontName
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '' && !styleWords.has(word))
    .join('')
}

const converted: Readonly<Record<string, LegacyFont>> = { preeti: 'preeti', kantipur: 'kantipur' }

export function legacyFontOfName(fontName: string): LegacyFont | null {
  return converted[familyKey(fontName)] ?? null
}

// Their keyboards differ from Preeti's: an import names them instead of converting them wrongly.
const unsupported: Readonly<Record<string, string>> = {
  pcsnepali: 'PCS Nepali',
  sagarmatha: 'Sagarmatha',
  himali: 'Himali',
  fontasyhimali: 'Himali',
  kanchan: 'Kanchan',
  aakriti: 'Aakriti',
}

export function unsupportedLegacyFontOfName(fontName: string): string | null {
  return unsupported[familyKey(fontName)] ?? null
}
