import katex, { type KatexOptions } from 'katex'
// Registers \ce{} and \pu{} with KaTeX (mhchem); importing it once is enough for every render.
import 'katex/contrib/mhchem'
import { plainReading, type MathTreeNode } from '@quiz/contracts/rules/maths-reading'
import { splitSegments } from '@quiz/contracts/rules/tex-segments'
import { describeTableProblem, splitTables, tableHtml, tableSource } from '@quiz/contracts/rules/pipe-tables'
import {
  definesAMacro,
  definesMacro,
  texDepth,
  katexOptions,
  texLimits,
  tooDeep,
  tooLarge,
  tooManyExpansions,
} from '@quiz/contracts/rules/tex-limits'
import { createRenderCache, flatString } from './render-cache'

export interface RenderedText {
  plain: string
  html: string
}

// `beyond`: the formula parses but passes a bound of tex-limits (too deep, too large).
export type RenderResult =
  { ok: true; rendered: RenderedText | null } | { ok: false; formula: string | null; problem: string; beyond?: true }

// The payload is a third of KaTeX's HTML-and-MathML output; the options are shared with the admin's preview.
const options: KatexOptions = katexOptions

// KaTeX's undeclared `__renderToDomTree`: the plain reading walks the same tree, so a formula is parsed once.
interface DomTree extends MathTreeNode {
  toMarkup(): string
}
const renderToDomTree = (katex as unknown as { __renderToDomTree(tex: string, options: KatexOptions): DomTree })
  .__renderToDomTree

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => escapes[char])

export function renderMaths(source: string): RenderResult {
  if (!source.includes('$') && !source.includes('|')) return { ok: true, rendered: null }
  const cached = recent.get(source)
  if (cached) return cached
  const result = render(source)
  // A write renders in its check and again in its transaction: the second is a lookup, so SQLite's writer waits not.
  recent.set(flatString(source), result)
  return result
}

// About 16 MB of strings: a 500-question paper's texts between its check and its write (docs/decisions/047).
export const RENDER_CACHE_CHARS = 8_000_000
const recent = createRenderCache<RenderResult>({
  maxChars: RENDER_CACHE_CHARS,
  weigh: (result) =>
    result.ok ? (result.rendered ? result.rendered.plain.length + result.rendered.html.length : 0) : 200,
})

export const renderCacheSize = () => recent.size()

// Tables first (API.md "Tables in questions"): each cell is rendered as a text of its own, maths included.
function render(source: string): RenderResult {
  const split = splitTables(source)
  if (!split.ok) return { ok: false, formula: null, problem: describeTableProblem(split.problem) }
  if (split.tables === 0) return renderInline(source)
  const plain: string[] = []
  let html = ''
  for (const block of split.blocks) {
    if (block.kind === 'text') {
      const text = renderInline(block.text)
      if (!text.ok) return text
      plain.push(text.rendered?.plain ?? block.text)
      html += text.rendered?.html ?? escapeHtml(block.text)
      continue
    }
    const cells = (row: string[]) => row.map(renderInline)
    const header = cells(block.table.header)
    const rows = block.table.rows.map(cells)
    const failed = [...header, ...rows.flat()].find((cell) => !cell.ok)
    if (failed) return failed
    const shown = (row: RenderResult[], source: string[]) =>
      row.map(
        (cell, column) => (cell.ok && cell.rendered) || { plain: source[column]!, html: escapeHtml(source[column]!) },
      )
    const headerShown = shown(header, block.table.header)
    const rowsShown = rows.map((row, index) => shown(row, block.table.rows[index]!))
    plain.push(
      tableSource(
        block.table,
        headerShown.map((cell) => cell.plain),
        rowsShown.map((row) => row.map((cell) => cell.plain)),
      ),
    )
    html += tableHtml(
      block.table,
      headerShown.map((cell) => cell.html),
      rowsShown.map((row) => row.map((cell) => cell.html)),
    )
    if (html.length > texLimits.maxRenderedChars)
      return { ok: false, formula: null, problem: `This text with its tables ${tooLarge}`, beyond: true }
  }
  return { ok: true, rendered: { plain: flatString(plain.join('\n')), html: flatString(html) } }
}

function renderInline(source: string): RenderResult {
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
    const refuse = (problem: string) => ({ ok: false as const, formula: flatString(segment.source), problem })
    // Measured before KaTeX sees it: KaTeX recurses once or more per level, and 2,000 levels overflow the stack.
    if (texDepth(segment.tex) > texLimits.maxDepth) return { ...refuse(tooDeep), beyond: true }
    if (definesMacro(segment.tex)) return { ...refuse(definesAMacro), beyond: true }
    try {
      const tree = renderToDomTree(segment.tex, { ...options, displayMode: segment.display })
      plain += plainReading(tree)
      html += tree.toMarkup()
    } catch (error) {
      if (error instanceof katex.ParseError)
        // KaTeX's own words ("need to increase maxExpand setting") would send an admin looking for a setting.
        return error.rawMessage.startsWith('Too many expansions')
          ? { ...refuse(tooManyExpansions), beyond: true }
          : refuse(error.rawMessage)
      // Stack overflow from nesting the source does not show, or a string past V8's limit: the same refusal.
      if (error instanceof RangeError)
        return { ...refuse(/stack/i.test(error.message) ? tooDeep : tooLarge), beyond: true }
      throw error
    }
    if (html.length > texLimits.maxRenderedChars) return { ...refuse(tooLarge), beyond: true }
  }
  return { ok: true, rendered: { plain: flatString(plain), html: flatString(html) } }
}

export function describeProblem(result: { formula: string | null; problem: string; beyond?: true }) {
  if (result.formula === null) return result.problem
  return result.beyond
    ? `The formula ${result.formula} ${result.problem}`
    : `The formula ${result.formula} does not parse: ${result.problem}`
}
