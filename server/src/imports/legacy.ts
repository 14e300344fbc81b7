import type { LegacyFontChoice } from '@quiz/contracts'
import {
  legacyFontOfName,
  legacyToUnicode,
  readsAsLegacy,
  unsupportedLegacyFontOfName,
  type LegacyFont,
} from './legacy-font'
import type { Run } from './readers/draft'

// API.md "Legacy Nepali fonts", applied to the runs of one text. A run whose font is Preeti or Kantipur is converted
// with that font (neighbouring runs of one font together, as Word splits words into runs at will); a text without
// such runs is converted whole when the choice says so: with `preeti` / `kantipur` every `_ne` and other non-`_en`
// spreadsheet cell that holds no Devanagari, with `auto` a `_ne` cell that reads as legacy text. Texts of formats
// without a language split are converted when they read as legacy text (docx only by font under `auto`: its fonts
// say which runs are legacy). `_en` cells are never converted; `none` converts nothing.

/** `en` / `ne`: a spreadsheet's language columns; `meta`: its topic, tags and source; `mixed`: unsplit formats. */
export type TextRole = 'en' | 'ne' | 'meta' | 'mixed'

const DEVANAGARI = /[\u0900-\u097F]/
export const hasDevanagari = (text: string) => DEVANAGARI.test(text)

const convert = (text: string, font: LegacyFont): Run => ({
  text: legacyToUnicode(text, font),
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

/** One text's runs after the legacy-font rules; `formatHasFonts` is true for xlsx and docx. */
export function applyLegacyFonts(
  runs: readonly Run[],
  role: TextRole,
  choice: LegacyFontChoice,
  formatHasFonts: boolean,
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
  const wanted =
    role === 'ne'
      ? explicit || readsAsLegacy(text)
      : role === 'meta'
        ? explicit
        : (explicit || !formatHasFonts) && readsAsLegacy(text)
  return wanted ? [convert(text, font)] : [...runs]
}

/**
 * The lines of pasted text when the admin chose the font (`preeti` / `kantipur`) and the text, taken whole, reads as
 * legacy text: each line without Devanagari is converted before the layout is read, so that its numbers, letters and
 * answer line (`!=`, `-s_`, `pQ/M`) are understood as a Word file's runs in that font are. Taken whole, because one
 * short line (`-u_ xfQL`, हात्ती) has too little evidence alone. Under `auto` nothing is converted here (the
 * per-question decision stays with applyLegacyFonts).
 */
export function convertTextLines(lines: readonly Run[][], choice: LegacyFontChoice): Run[][] {
  if (choice !== 'preeti' && choice !== 'kantipur') return [...lines]
  const textOf = (runs: readonly Run[]) => runs.map((run) => run.text).join('')
  const legacy = lines.map(textOf).filter((text) => text.trim() !== '' && !hasDevanagari(text))
  if (legacy.length === 0 || !readsAsLegacy(legacy.join('\n'))) return [...lines]
  return lines.map((runs) => {
    const text = textOf(runs)
    return text.trim() === '' || hasDevanagari(text) || runs.some((run) => run.converted)
      ? runs
      : [convert(text, choice)]
  })
}
