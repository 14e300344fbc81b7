import type { LegacyFontChoice } from '@quiz/contracts'
import {
  decideQuestion,
  legacyFontOfName,
  legacyToUnicode,
  mayBeLegacy,
  readsAsEnglish,
  readsAsLegacy,
  unsupportedLegacyFontOfName,
  type LegacyFont,
  type QuestionDecision,
} from './legacy-font'
import type { Run } from './readers/draft'

// API.md "Legacy Nepali fonts", applied to the runs of one text. A run whose font is Preeti or Kantipur is converted
// with that font (neighbouring runs of one font together, as Word splits words into runs at will); a text without
// such runs is converted whole when the choice says so: with `preeti` / `kantipur` every `_ne` and other non-`_en`
// spreadsheet cell that holds no Devanagari; with `auto` the `_ne` cells and the texts of formats without a language
// split (docx only by font: its fonts say which runs are legacy) of a question decided Preeti as a whole, its text and
// options together (docs/decisions/044), never its topic, tags or source. `_en` cells are never converted; `none`
// converts nothing.

/** `en` / `ne`: a spreadsheet's language columns; `meta`: its topic, tags and source; `mixed`: unsplit formats. */
export type TextRole = 'en' | 'ne' | 'meta' | 'mixed'

const DEVANAGARI = /[\u0900-\u097F]/
export const hasDevanagari = (text: string) => DEVANAGARI.test(text)

/** `keepNumbers` for text converted on its content: its ASCII numbers were typed in another font. */
const convert = (text: string, font: LegacyFont, keepNumbers = false): Run => ({
  text: legacyToUnicode(text, font, { keepNumbers }),
  font: null,
  converted: { original: text, font },
})

/** Runs in a Preeti or Kantipur font converted, the others kept. */
export function convertFontRuns(runs: readonly Run[], choice: LegacyFontChoice): Run[] {
  if (choice === 'none') return [...runs]
  const out: Run[] = []
  for (const run of runs) {
    const font = run.font && !run.converted ? legacyFontOfName(run.font) : null
    const last = out.at(-1)
    if (font && last?.converted?.font === font && last.font === run.font) {
      out[out.length - 1] = { ...convert(last.converted.original + run.text, font), font: run.font }
    } else if (font) out.push({ ...convert(run.text, font), font: run.font })
    else out.push(run)
  }
  // The font's name is kept on the run only to join its neighbours; a converted run has no legacy font any more.
  return out.map((run) => (run.converted ? { ...run, font: null } : run))
}

/** The legacy fonts of a text we cannot convert (PCS Nepali, Sagarmatha, Himali), by name. */
export function unsupportedFonts(runs: readonly Run[]): string[] {
  const names = new Set<string>()
  for (const run of runs) {
    if (!run.font || run.converted || run.text.trim() === '') continue
    const name = unsupportedLegacyFontOfName(run.font)
    if (name) names.add(name)
  }
  return [...names]
}

/** A text that the font rules will decide by its content: no legacy-font run, nothing converted yet. */
const undecidedText = (runs: readonly Run[]): string | null =>
  runs.some(
    (run) => run.converted || (run.font && (legacyFontOfName(run.font) || unsupportedLegacyFontOfName(run.font))),
  )
    ? null
    : runs.map((run) => run.text).join('')

/**
 * Under `auto`, the decision for a whole question from its text and options together (`ne` cells of a spreadsheet,
 * the texts of unsplit formats; `_en` cells never count), so that a Preeti question's one-word options follow it and
 * an English or code question's symbols (`#`, `&&`, `!`) stay as typed (docs/decisions/044).
 */
export function decideQuestionFonts(texts: ReadonlyArray<readonly Run[] | null>): QuestionDecision {
  return decideQuestion(texts.flatMap((runs) => (runs ? [undecidedText(runs) ?? ''] : [])))
}

/**
 * One text's runs after the legacy-font rules; `formatHasFonts` is true for xlsx and docx. `question`, the decision
 * of `decideQuestionFonts` for the question this text belongs to, replaces the text's own evidence under `auto`.
 */
export function applyLegacyFonts(
  runs: readonly Run[],
  role: TextRole,
  choice: LegacyFontChoice,
  formatHasFonts: boolean,
  question?: QuestionDecision,
): Run[] {
  if (role === 'en' || choice === 'none') return [...runs]
  // Text in a legacy font we cannot read is named, never converted as if it were Preeti.
  if (unsupportedFonts(runs).length > 0) return [...runs]
  if (runs.some((run) => run.font && !run.converted && legacyFontOfName(run.font))) return convertFontRuns(runs, choice)
  if (runs.some((run) => run.converted)) return [...runs]
  const text = runs.map((run) => run.text).join('')
  if (text.trim() === '' || hasDevanagari(text)) return [...runs]
  const explicit = choice !== 'auto'
  const font: LegacyFont = choice === 'kantipur' ? 'kantipur' : 'preeti'
  // Within a Preeti question, a text is still left alone when it is TeX, code, a bare number or English.
  const reads = question ? question.legacy && mayBeLegacy(text) && !readsAsEnglish(text) : readsAsLegacy(text)
  const wanted =
    role === 'ne'
      ? explicit || reads
      : role === 'meta'
        ? explicit
        : explicit
          ? readsAsLegacy(text)
          : !formatHasFonts && reads
  return wanted ? [convert(text, font, !explicit)] : [...runs]
}

/**
 * The lines of pasted text when the admin chose the font (`preeti` / `kantipur`) and the text, taken whole, reads as
 * legacy text: each line without Devanagari is converted before the layout is read, so that its numbers, letters and
 * answer line (`!=`, `-s_`, `pQ/M`) are understood as a Word file's runs in that font are. Taken whole, because one
 * short line (`-u_ xfQL`, हात्ती) has too little evidence alone. Under `auto` the same holds for a paste typed
 * wholly in Preeti: no question is numbered as typed (Preeti's `!=` is १.), and taken whole it is decided Preeti as a
 * question is (decideQuestion: no code, well-formed Devanagari after conversion). A paste numbered in Latin or
 * Devanagari digits (`1. efg'eQm…`, `Answer: A`) is read as typed, its texts left to applyLegacyFonts' decision.
 */
/** A question number as the layout reads it without conversion: `1.` `1)` `Q1.` `१.` (API.md "Import"). */
const NUMBERED_AS_TYPED = /^\s*(?:Q\s*)?[0-9०-९]+\s*[.)]/i

export function convertTextLines(lines: readonly Run[][], choice: LegacyFontChoice): Run[][] {
  if (choice === 'none') return [...lines]
  const font: LegacyFont = choice === 'kantipur' ? 'kantipur' : 'preeti'
  const textOf = (runs: readonly Run[]) => runs.map((run) => run.text).join('')
  const legacy = lines.map(textOf).filter((text) => text.trim() !== '' && !hasDevanagari(text))
  if (legacy.length === 0) return [...lines]
  const reads =
    choice === 'auto'
      ? !legacy.some((text) => NUMBERED_AS_TYPED.test(text)) && decideQuestion(legacy).legacy
      : readsAsLegacy(legacy.join('\n'))
  if (!reads) return [...lines]
  return lines.map((runs) => {
    const text = textOf(runs)
    return text.trim() === '' || hasDevanagari(text) || runs.some((run) => run.converted)
      ? runs
      : [convert(text, font, choice === 'auto')]
  })
}
