// The admin form's live preview of a text with maths, rendered in the browser as the server renders it when the
// question is saved (server/src/maths/render-maths.ts): the same delimiters, KaTeX with mhchem and the same options.
// Loaded only by dynamic import from maths-preview.tsx, so KaTeX is a chunk of its own that no learner downloads.
import { splitSegments, unmatchedDollar } from '@quiz/contracts/rules/tex-segments'
import { definesMacro, katexOptions, texDepth, texLimits } from '@quiz/contracts/rules/tex-limits'
import { splitTables, tableHtml, type TableProblem } from '@quiz/contracts/rules/pipe-tables'
import katex, { type KatexOptions } from 'katex'
// Registers \ce{} and \pu{} with KaTeX.
import 'katex/contrib/mhchem'

// MathML alone, as learners get it (docs/decisions/027): the preview is drawn exactly as they will see it, by the
// browser's own MathML, so it needs none of KaTeX's stylesheet or fonts (docs/decisions/028). The bounds are the
// server's (docs/decisions/047): a formula it would refuse is refused here, and none can hang or crash the form.
const options: KatexOptions = katexOptions

export type TexPreview =
  | { ok: true; html: string }
  | { ok: false; problem: 'unmatched_dollar' | 'empty_formula' }
  | { ok: false; problem: 'tex'; formula: string; message: string }
  | { ok: false; problem: 'too_deep' | 'macro_definition' | 'too_many_expansions' | 'too_large'; formula: string }
  | { ok: false; problem: 'table'; table: TableProblem }

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => escapes[char])

/**
 * The text with its tables drawn and every formula rendered, the rest escaped (the server's own markup, shared in
 * `@quiz/contracts/rules/pipe-tables`), or what is wrong with its first bad table or formula.
 */
export function renderTexPreview(source: string): TexPreview {
  const split = splitTables(source)
  if (!split.ok) return { ok: false, problem: 'table', table: split.problem }
  let html = ''
  for (const block of split.blocks) {
    if (block.kind === 'text') {
      const text = renderInline(block.text)
      if (!text.ok) return text
      html += text.html
      continue
    }
    const cells: string[][] = []
    for (const row of [block.table.header, ...block.table.rows]) {
      const rendered: string[] = []
      for (const cell of row) {
        const inline = renderInline(cell)
        if (!inline.ok) return inline
        rendered.push(inline.html)
      }
      cells.push(rendered)
    }
    html += tableHtml(block.table, cells[0]!, cells.slice(1))
  }
  return { ok: true, html }
}

function renderInline(source: string): TexPreview {
  const split = splitSegments(source)
  if (!split.ok) return { ok: false, problem: split.problem === unmatchedDollar ? 'unmatched_dollar' : 'empty_formula' }
  let html = ''
  for (const segment of split.segments) {
    if (segment.kind === 'text') {
      html += escapeHtml(segment.text)
      continue
    }
    const formula = segment.source
    // Measured before KaTeX recurses into it: about 2,000 levels overflow the stack.
    if (texDepth(segment.tex) > texLimits.maxDepth) return { ok: false, problem: 'too_deep', formula }
    if (definesMacro(segment.tex)) return { ok: false, problem: 'macro_definition', formula }
    try {
      html += katex.renderToString(segment.tex, { ...options, displayMode: segment.display })
    } catch (error) {
      if (error instanceof katex.ParseError)
        return error.rawMessage.startsWith('Too many expansions')
          ? { ok: false, problem: 'too_many_expansions', formula }
          : { ok: false, problem: 'tex', formula, message: error.rawMessage }
      // Nesting the source does not show overflows the stack all the same.
      if (error instanceof RangeError) return { ok: false, problem: 'too_deep', formula }
      throw error
    }
    if (html.length > texLimits.maxRenderedChars) return { ok: false, problem: 'too_large', formula }
  }
  return { ok: true, html }
}
