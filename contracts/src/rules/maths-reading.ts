// From KaTeX's MathML tree, not a second TeX parser (the server, as it renders), or from the same MathML in a page
// (the web app, to name each formula for a screen reader); scripts become Unicode (x², H₂O), which search and copy keep.

export interface MathTreeNode {
  type?: string
  text?: string
  attributes?: Record<string, string>
  children?: MathTreeNode[]
}

const superscripts: Record<string, string> = {
  '0': '⁰',
  '1': '¹',
  '2': '²',
  '3': '³',
  '4': '⁴',
  '5': '⁵',
  '6': '⁶',
  '7': '⁷',
  '8': '⁸',
  '9': '⁹',
  '+': '⁺',
  '-': '⁻',
  '−': '⁻',
  '=': '⁼',
  '(': '⁽',
  ')': '⁾',
  n: 'ⁿ',
  i: 'ⁱ',
}
const subscripts: Record<string, string> = {
  '0': '₀',
  '1': '₁',
  '2': '₂',
  '3': '₃',
  '4': '₄',
  '5': '₅',
  '6': '₆',
  '7': '₇',
  '8': '₈',
  '9': '₉',
  '+': '₊',
  '-': '₋',
  '−': '₋',
  '=': '₌',
  '(': '₍',
  ')': '₎',
}

function script(raw: string, table: Record<string, string>, marker: string) {
  const text = raw.replace(/\s+/g, ' ').trim()
  if (text === '') return ''
  // Spaces around a charge's sign ("2 −") are the operator spacing of read(), not part of the script.
  const chars = [...text.replace(/\s/g, '')]
  if (chars.every((char) => char in table)) return chars.map((char) => table[char]).join('')
  return chars.length === 1 ? `${marker}${text}` : `${marker}(${text})`
}

function grouped(raw: string) {
  const text = raw.replace(/\s+/g, ' ').trim()
  return /^[\p{L}\p{N}.,]*$/u.test(text) ? text : `(${text})`
}

// Relations, arrows and binary operators read with a space each side: "x² + 5x + 6 = 0", "2H₂ + O₂ → 2H₂O".
const spacedOperators = new Set([...'=<>≤≥≠≈≡∝→←↔⇌⇒⇔⟶⟵⟷+−±∓×÷·'])

function read(node: MathTreeNode): string {
  if (node.type === undefined) return node.text ?? (node.children ?? []).map(read).join('')
  const parts = (node.children ?? []).map(read)
  switch (node.type) {
    case 'mo': {
      const text = parts.join('')
      return spacedOperators.has(text) ? ` ${text} ` : text
    }
    case 'annotation':
    case 'mphantom':
      return ''
    case 'mspace':
      return ' '
    case 'mfrac':
      return `${grouped(parts[0])}/${grouped(parts[1])}`
    case 'msqrt':
      return `√${grouped(parts.join(''))}`
    case 'mroot':
      return `${script(parts[1], superscripts, '^')}√${grouped(parts[0])}`
    case 'msup':
      return parts[0] + script(parts[1], superscripts, '^')
    case 'msub':
      return parts[0] + script(parts[1], subscripts, '_')
    case 'msubsup':
      return parts[0] + script(parts[1], subscripts, '_') + script(parts[2], superscripts, '^')
    case 'munder':
      return node.attributes?.accentunder === 'true' ? parts.join('') : parts[0] + script(parts[1], subscripts, '_')
    case 'mover':
      return node.attributes?.accent === 'true' ? parts.join('') : parts[0] + script(parts[1], superscripts, '^')
    case 'munderover':
      return parts[0] + script(parts[1], subscripts, '_') + script(parts[2], superscripts, '^')
    case 'mtr':
      return parts.join(', ')
    case 'mtable':
      return parts.join('; ')
    case 'semantics':
      return parts[0] ?? ''
    default:
      return parts.join('')
  }
}

export function plainReading(tree: MathTreeNode) {
  // Invisible operators (function application, invisible times and separator) would only confuse a copy or search.
  return read(tree)
    .replace(/[\u2061-\u2064]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}
