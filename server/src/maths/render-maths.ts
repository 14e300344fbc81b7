import katex, { type KatexOptions } from 'katex'
// Registers \ce{} and \pu{} with KaTeX (mhchem); importing it once is enough for every render.
import 'katex/contrib/mhchem'
import { plainReading, type MathTreeNode } from './plain-reading'
import { splitSegments } from '@quiz/contracts/rules/tex-segments'

/** A text with maths: what learners read in place of the source, and the HTML with every formula rendered. */
export interface RenderedText {
  plain: string
  html: string
}

export type RenderResult =
  { ok: true; rendered: RenderedText | null } | { ok: false; formula: string | null; problem: string }

// MathML alone (docs/decisions/027): current browsers draw it natively, so a learner needs none of KaTeX's
// stylesheet, fonts or JavaScript, and the payload is a third of KaTeX's HTML-and-MathML output.
// `strict: 'ignore'`: KaTeX would warn on Nepali words in \text{}, which are exactly what a bilingual paper holds.
// `trust` stays false: no \href, \url or \includegraphics from an admin's text reaches a learner.
const options: KatexOptions = { output: 'mathml', throwOnError: true, strict: 'ignore', trust: false }

// `renderToString` builds the same tree and serialises it; the tree is also what the plain reading walks, so the
// formula is parsed once. KaTeX exports it (`__renderToDomTree`) without declaring its type.
interface DomTree extends MathTreeNode {
  toMarkup(): string
}
const renderToDomTree = (katex as unknown as { __renderToDomTree(tex: string, options: KatexOptions): DomTree })
  .__renderToDomTree

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => escapes[char])

/**
 * Renders every formula of `source`. A text without `$` and `\$` renders to null (it has no `html`); one whose
 * delimiters or TeX do not parse is refused, naming the formula (null for a delimiter problem) and the problem.
 */
export function renderMaths(source: string): RenderResult {
  if (!source.includes('$')) return { ok: true, rendered: null }
  const cached = recent.get(source)
  if (cached) return cached
  const result = render(source)
  // A write checks its texts before its transaction and renders them again inside it: the second time is a lookup,
  // so the transaction (SQLite's one writer) is not held for KaTeX. Bounded: a big paste, then forgotten.
  if (recent.size >= RECENT_LIMIT) recent.clear()
  recent.set(source, result)
  return result
}

const RECENT_LIMIT = 5_000
const recent = new Map<string, RenderResult>()

function render(source: string): RenderResult {
  const split = splitSegments(source)
  if (!split.ok) return { ok: false, formula: null, problem: split.problem }
  if (!split.markup) return { ok: true, rendered: null }
  let plain = ''
  let html = ''
  for (const segment of split.segments) {
    if (segment.kind === 'text') {
      plain += segment.text
      html += escapeHtml(segment.text)
      continue
    }
    try {
      const tree = renderToDomTree(segment.tex, { ...options, displayMode: segment.display })
      plain += plainReading(tree)
      html += tree.toMarkup()
    } catch (error) {
      if (!(error instanceof katex.ParseError)) throw error
      return { ok: false, formula: segment.source, problem: error.rawMessage }
    }
  }
  return { ok: true, rendered: { plain, html } }
}

/** The refusal as a field error: the formula and what is wrong with it. */
export function describeProblem(result: { formula: string | null; problem: string }) {
  return result.formula === null ? result.problem : `The formula ${result.formula} does not parse: ${result.problem}`
}
