// The admin form's live preview of a text with maths, rendered in the browser as the server renders it when the
// question is saved (server/src/maths/render-maths.ts): the same delimiters, KaTeX with mhchem and the same options.
// Loaded only by dynamic import from maths-preview.tsx, so KaTeX is a chunk of its own that no learner downloads.
import { splitSegments, unmatchedDollar } from '@quiz/contracts/rules/tex-segments'
import katex, { type KatexOptions } from 'katex'
// Registers \ce{} and \pu{} with KaTeX.
import 'katex/contrib/mhchem'

// MathML alone, as learners get it (docs/decisions/027): the preview is drawn exactly as they will see it, by the
// browser's own MathML, so it needs none of KaTeX's stylesheet or fonts (docs/decisions/028).
const options: KatexOptions = { output: 'mathml', throwOnError: true, strict: 'ignore', trust: false }

export type TexPreview =
  | { ok: true; html: string }
  | { ok: false; problem: 'unmatched_dollar' | 'empty_formula' }
  | { ok: false; problem: 'tex'; formula: string; message: string }

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => escapes[char])

/** The text with every formula rendered and the rest escaped, or what is wrong with its first bad formula. */
export function renderTexPreview(source: string): TexPreview {
  const split = splitSegments(source)
  if (!split.ok) return { ok: false, problem: split.problem === unmatchedDollar ? 'unmatched_dollar' : 'empty_formula' }
  let html = ''
  for (const segment of split.segments) {
    if (segment.kind === 'text') {
      html += escapeHtml(segment.text)
      continue
    }
    try {
      html += katex.renderToString(segment.tex, { ...options, displayMode: segment.display })
    } catch (error) {
      if (!(error instanceof katex.ParseError)) throw error
      return { ok: false, problem: 'tex', formula: segment.source, message: error.rawMessage }
    }
  }
  return { ok: true, html }
}
