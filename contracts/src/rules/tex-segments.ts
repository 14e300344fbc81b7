// Shared by the server's renderer and the admin form's live preview (`@quiz/contracts/rules/tex-segments`): both
// must agree on where formulas are, or the preview would accept a text the server refuses.
// Splits a question's text into plain runs and formulas (API.md "Maths and chemistry"): `$…$` inline, `$$…$$`
// display, `\$` a dollar sign. Only the delimiters are read here; what is between them is KaTeX's to parse.

export type Segment =
  { kind: 'text'; text: string } | { kind: 'formula'; tex: string; display: boolean; source: string }

export type Segments = { ok: true; segments: Segment[]; markup: boolean } | { ok: false; problem: string }

export const unmatchedDollar = 'An unmatched $ starts no formula: write \\$ for a dollar sign.'
export const emptyFormula = 'A formula between $ signs is empty: write \\$ for a dollar sign.'

/**
 * The text's segments; `markup` says whether it holds any formula or `\$` (such a text carries `html`). Inside a
 * formula a backslash escapes the next character, so `$\$5$` is a formula holding TeX's own `\$`.
 */
export function splitSegments(source: string): Segments {
  const segments: Segment[] = []
  let plain = ''
  let markup = false
  let index = 0
  while (index < source.length) {
    const char = source[index]
    if (char === '\\' && source[index + 1] === '$') {
      plain += '$'
      markup = true
      index += 2
      continue
    }
    if (char !== '$') {
      plain += char
      index += 1
      continue
    }
    const display = source[index + 1] === '$'
    const delimiter = display ? '$$' : '$'
    const start = index + delimiter.length
    const end = closingDelimiter(source, start, delimiter)
    if (end === -1) return { ok: false, problem: unmatchedDollar }
    const tex = source.slice(start, end)
    if (tex.trim() === '') return { ok: false, problem: emptyFormula }
    if (plain) segments.push({ kind: 'text', text: plain })
    plain = ''
    segments.push({ kind: 'formula', tex, display, source: source.slice(index, end + delimiter.length) })
    markup = true
    index = end + delimiter.length
  }
  if (plain) segments.push({ kind: 'text', text: plain })
  return { ok: true, segments, markup }
}

function closingDelimiter(source: string, from: number, delimiter: string) {
  for (let index = from; index < source.length; index += 1) {
    if (source[index] === '\\') index += 1
    else if (source.startsWith(delimiter, index)) return index
  }
  return -1
}
