import type { Language } from '@quiz/contracts'

const latinLetters = 'ABCDEFGHIJ'
// Loksewa papers letter their options क ख ग घ …, and so do the import's Word layout and `correct` column.
const nepaliLetters = ['क', 'ख', 'ग', 'घ', 'ङ', 'च', 'छ', 'ज', 'झ', 'ञ']

/** An option's letter as a paper in the language writes it: "C" in English, "ग" in Nepali. */
export const optionLetter = (index: number, language: Language) =>
  (language === 'ne' ? nepaliLetters[index] : latinLetters[index]) ?? String(index + 1)
