export const HALANT = '\u094D'
export const NUKTA = '\u093C'
export const SIGN_I = '\u093F' // ि
export const SIGN_AA = '\u093E' // ा

export const isConsonant = (c: string | undefined) =>
  c !== undefined && ((c >= '\u0915' && c <= '\u0939') || (c >= '\u0958' && c <= '\u095F'))

export const isVowelSign = (c: string | undefined) =>
  c !== undefined && ((c >= '\u093E' && c <= '\u094C') || c === '\u0962' || c === '\u0963')

/** ँ ं ः: written after the vowel sign of their syllable. */
export const isModifier = (c: string | undefined) => c !== undefined && c >= '\u0901' && c <= '\u0903'

export const isDevanagari = (c: string | undefined) => c !== undefined && c >= '\u0900' && c <= '\u097F'

export const hasDevanagari = (text: string) => /[\u0900-\u097F]/.test(text)
