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

// Which texts are converted, and why pastes are judged whole: docs/legacy-fonts.md "Which texts the import converts".

/** `en` / `ne`: a spreadsheet's language columns; `meta`: its topic, tags and source; `mixed`: unsplit formats. */
export type TextRole = 'en' | 'ne' | 'meta' | 'mixed'

const DEVANAGARI = /[\u0900-\u097F]/
export const hasDevanagari = (text: string) => DEVANAGARI.test(text)

const convert = (text: string, font: LegacyFont, keepNumbers = false): Run => ({
  text: legacyToUnicode(text, font, { keepNumbers }),
  font: null,
  converted: { original: text, font },
})

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
  return out.map((run) => (run.converted ? { ...run, font: null } : run))
}

export function unsupportedFonts(runs: readonly Run[]): string[] {
  const names = new Set<string>()
  for (const run of runs) {
    if (!run.font || run.converted || run.text.trim() === '') continue
    const name = unsupportedLegacyFontOfName(run.font)
    if (name) names.add(name)
  }
  return [...names]
}

const undecidedText = (runs: readonly Run[]): string | null =>
  runs.some(
    (run) => run.converted || (run.font && (legacyFontOfName(run.font) || unsupportedLegacyFontOfName(run.font))),
  )
    ? null
    : runs.map((run) => run.text).join('')

export function decideQuestionFonts(texts: ReadonlyArray<readonly Run[] | null>): QuestionDecision {
  return decideQuestion(texts.flatMap((runs) => (runs ? [undecidedText(runs) ?? ''] : [])))
}

// `question`, the decision of `decideQuestionFonts`, replaces the text's own evidence under `auto`.
export function applyLegacyFonts(
  runs: readonly Run[],
  role: TextRole,
  choice: LegacyFontChoice,
  formatHasFonts: boolean,
  question?: QuestionDecision,
): Run[] {
  if (role === 'en' || choice === 'none') return [...runs]
  if (unsupportedFonts(runs).length > 0) return [...runs]
  if (runs.some((run) => run.font && !run.converted && legacyFontOfName(run.font))) return convertFontRuns(runs, choice)
  if (runs.some((run) => run.converted)) return [...runs]
  const text = runs.map((run) => run.text).join('')
  if (text.trim() === '' || hasDevanagari(text)) return [...runs]
  const explicit = choice !== 'auto'
  const font: LegacyFont = choice === 'kantipur' ? 'kantipur' : 'preeti'
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
