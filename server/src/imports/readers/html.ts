import { tablesToPipes } from './html-tables'

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  times: '×',
  divide: '÷',
  deg: '°',
  plusmn: '±',
  minus: '−',
}

export const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[name.toLowerCase()] ?? whole
  })

// Word's conditional comments hold its settings as elements whose text ("Normal", "0") would run into the question.
export const withoutComments = (html: string) => html.replace(/<!--[\s\S]*?(?:-->|$)/g, '')

// Walked by hand: `<(script|style)\b[^>]*>[\s\S]*?<\/\1>` rescans the rest from every unclosed opening tag.
function withoutScripts(html: string): string {
  const opener = /<(script|style)\b/gi
  const closed = new Map<string, boolean>()
  const out: string[] = []
  let kept = 0
  for (let match = opener.exec(html); match; match = opener.exec(html)) {
    const name = match[1]!.toLowerCase()
    const tagEnd = html.indexOf('>', opener.lastIndex)
    if (tagEnd < 0) break // no tag ends after here: no later opening tag can either
    if (closed.get(name) === false) continue
    const closer = new RegExp(`</${name}>`, 'gi')
    closer.lastIndex = tagEnd + 1
    const end = closer.exec(html)
    if (!end) {
      closed.set(name, false) // nothing after here closes this element: later ones of its name stay too
      continue
    }
    out.push(html.slice(kept, match.index))
    kept = end.index + end[0].length
    opener.lastIndex = kept
  }
  out.push(html.slice(kept))
  return out.join('')
}

function withoutTags(html: string): string {
  const out: string[] = []
  let at = 0
  for (let open = html.indexOf('<'); open >= 0; open = html.indexOf('<', at)) {
    const close = html.indexOf('>', open + 1)
    if (close < 0) break
    out.push(html.slice(at, open))
    at = close + 1
  }
  out.push(html.slice(at))
  return out.join('')
}

// One line at a time: `[ \t]+\n` backtracks over long runs.
function trimLineEnds(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      let end = line.length
      while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
      return line.slice(0, end)
    })
    .join('\n')
}

export function htmlToText(html: string): string {
  return trimLineEnds(
    decodeEntities(
      withoutTags(
        tablesToPipes(withoutScripts(withoutComments(html)))
          .replace(/<br\s*\/?>/gi, '\n')
          .replace(/<\/(p|div|li|h[1-6]|tr)>/gi, '\n'),
      ),
    ),
  )
    .replace(/\n{2,}/g, '\n')
    .trim()
}
