import katex, { type KatexOptions } from 'katex'
// Registers \ce{} and \pu{} with KaTeX (mhchem).
import 'katex/contrib/mhchem'
import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/027: a question's texts may hold TeX, rendered once when written and stored beside the source in
// `maths` (JSON, null without maths). Texts written before held no maths on purpose, but some were pasted from
// elsewhere with TeX in them ("$\frac{1}{2}$"): every old text with a `$` is rendered here, field by field. A field
// whose `$` do not pair up or whose TeX does not parse (a price, "$5") was never maths: it is kept as it is, without
// html, and shown exactly as before. Its source is not changed, so the admin sees it as written; saving the question
// again asks for `\$`.

// A frozen copy of the renderer (maths/rich-text.ts renderBilingual, maths/render-maths.ts, maths/plain-reading.ts
// and contracts' rules/tex-segments.ts and rules/tex-limits.ts) as of issue 42: this migration renders old texts as
// the application did then, whatever the renderer becomes. Every refusal of the application is a throw here: the
// field was never maths (see above).

interface Bilingual {
  en: string
  ne: string
}
interface RenderedBilingual {
  plain: Bilingual
  html: Bilingual
}
type StoredMaths = Partial<Record<'text' | 'hint' | 'caption', RenderedBilingual>>

const MAX_DEPTH = 50
const MAX_RENDERED_CHARS = 50_000
const katexOptions: KatexOptions = {
  output: 'mathml',
  throwOnError: true,
  strict: 'ignore',
  trust: false,
  maxSize: 20,
  maxExpand: 100,
}

interface MathTreeNode {
  type?: string
  text?: string
  attributes?: Record<string, string>
  children?: MathTreeNode[]
  toMarkup?(): string
}
const renderToDomTree = (
  katex as unknown as {
    __renderToDomTree(tex: string, options: KatexOptions): Required<Pick<MathTreeNode, 'toMarkup'>> & MathTreeNode
  }
).__renderToDomTree

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => escapes[char]!)

type Segment = { kind: 'text'; text: string } | { kind: 'formula'; tex: string; display: boolean }

/** `$…$` inline, `$$…$$` display, `\$` a dollar sign; null when a `$` is unmatched or a formula empty. */
function splitSegments(source: string): { segments: Segment[]; markup: boolean } | null {
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
    const delimiter = source[index + 1] === '$' ? '$$' : '$'
    const start = index + delimiter.length
    let end = -1
    for (let at = start; at < source.length; at += 1) {
      if (source[at] === '\\') at += 1
      else if (source.startsWith(delimiter, at)) {
        end = at
        break
      }
    }
    if (end === -1) return null
    const tex = source.slice(start, end)
    if (tex.trim() === '') return null
    if (plain) segments.push({ kind: 'text', text: plain })
    plain = ''
    segments.push({ kind: 'formula', tex, display: delimiter === '$$' })
    markup = true
    index = end + delimiter.length
  }
  if (plain) segments.push({ kind: 'text', text: plain })
  return { segments, markup }
}

function texDepth(tex: string): number {
  const commandName = /[a-zA-Z]+/y
  let depth = 0
  let deepest = 0
  let index = 0
  while (index < tex.length) {
    const char = tex[index]
    if (char === '\\') {
      commandName.lastIndex = index + 1
      const name = commandName.exec(tex)?.[0]
      if (name === 'left' || name === 'begin') depth += 1
      else if (name === 'right' || name === 'end') depth -= 1
      index += 1 + (name?.length ?? 1)
    } else {
      if (char === '{') depth += 1
      else if (char === '}') depth -= 1
      index += 1
    }
    if (depth > deepest) deepest = depth
  }
  return deepest
}

const macroDefinition =
  /\\(?:[egx]?def|let|futurelet|global|(?:re)?newcommand|providecommand|(?:re)?newenvironment)(?![a-zA-Z])/

const table = (from: string, to: string) => Object.fromEntries([...from].map((char, i) => [char, [...to][i]!]))
const superscripts = table('0123456789+-−=()ni', '⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ')
const subscripts = table('0123456789+-−=()', '₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎')

function script(raw: string, scripts: Record<string, string>, marker: string) {
  const text = raw.replace(/\s+/g, ' ').trim()
  if (text === '') return ''
  const chars = [...text.replace(/\s/g, '')]
  if (chars.every((char) => char in scripts)) return chars.map((char) => scripts[char]).join('')
  return chars.length === 1 ? `${marker}${text}` : `${marker}(${text})`
}

function grouped(raw: string) {
  const text = raw.replace(/\s+/g, ' ').trim()
  return /^[\p{L}\p{N}.,]*$/u.test(text) ? text : `(${text})`
}

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
      return `${grouped(parts[0]!)}/${grouped(parts[1]!)}`
    case 'msqrt':
      return `√${grouped(parts.join(''))}`
    case 'mroot':
      return `${script(parts[1]!, superscripts, '^')}√${grouped(parts[0]!)}`
    case 'msup':
      return parts[0] + script(parts[1]!, superscripts, '^')
    case 'msub':
      return parts[0] + script(parts[1]!, subscripts, '_')
    case 'msubsup':
      return parts[0] + script(parts[1]!, subscripts, '_') + script(parts[2]!, superscripts, '^')
    case 'munder':
      return node.attributes?.accentunder === 'true' ? parts.join('') : parts[0] + script(parts[1]!, subscripts, '_')
    case 'mover':
      return node.attributes?.accent === 'true' ? parts.join('') : parts[0] + script(parts[1]!, superscripts, '^')
    case 'munderover':
      return parts[0] + script(parts[1]!, subscripts, '_') + script(parts[2]!, superscripts, '^')
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

const plainReading = (tree: MathTreeNode) =>
  read(tree)
    .replace(/[\u2061-\u2064]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

/** The text's plain reading and HTML; null without maths. Throws where the application refused the text. */
function renderMaths(source: string): { plain: string; html: string } | null {
  if (!source.includes('$')) return null
  const split = splitSegments(source)
  if (!split) throw new Error('unmatched $ or empty formula')
  if (!split.markup) return null
  let plain = ''
  let html = ''
  for (const segment of split.segments) {
    if (segment.kind === 'text') {
      plain += segment.text
      html += escapeHtml(segment.text)
      continue
    }
    if (texDepth(segment.tex) > MAX_DEPTH || macroDefinition.test(segment.tex)) throw new Error('beyond the bounds')
    const tree = renderToDomTree(segment.tex, { ...katexOptions, displayMode: segment.display })
    plain += plainReading(tree)
    html += tree.toMarkup()
    if (html.length > MAX_RENDERED_CHARS) throw new Error('beyond the bounds')
  }
  return { plain, html }
}

function renderBilingual(text: Bilingual): RenderedBilingual | null {
  const en = renderMaths(text.en)
  const ne = renderMaths(text.ne)
  if (en === null && ne === null) return null
  return {
    plain: { en: en?.plain ?? text.en, ne: ne?.plain ?? text.ne },
    html: { en: en?.html ?? escapeHtml(text.en), ne: ne?.html ?? escapeHtml(text.ne) },
  }
}

type Fields = Record<'text' | 'hint' | 'caption', [en: string | null, ne: string | null]>

function renderedFields(fields: Partial<Fields>): string | null {
  const stored: StoredMaths = {}
  for (const [field, [en, ne]] of Object.entries(fields) as [keyof Fields, Fields[keyof Fields]][]) {
    if (en === null) continue
    try {
      const rendered = renderBilingual({ en, ne: ne ?? '' })
      if (rendered) stored[field] = rendered
    } catch {
      // Not maths (see above): this field keeps no html.
    }
  }
  return Object.keys(stored).length === 0 ? null : JSON.stringify(stored)
}

export const maths = (_dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('question_revisions').addColumn('maths', 'text').execute()
    await db.schema.alterTable('question_options').addColumn('maths', 'text').execute()

    const revisions = (
      await sql<{
        id: number
        text_en: string
        text_ne: string
        hint_en: string | null
        hint_ne: string
        image_svg: string | null
        image_caption_en: string
        image_caption_ne: string
      }>`
      select id, text_en, text_ne, hint_en, hint_ne, image_svg, image_caption_en, image_caption_ne
      from question_revisions
      where text_en like '%$%' or text_ne like '%$%' or hint_en like '%$%' or hint_ne like '%$%'
        or image_caption_en like '%$%' or image_caption_ne like '%$%'`.execute(db)
    ).rows
    for (const row of revisions) {
      const stored = renderedFields({
        text: [row.text_en, row.text_ne],
        hint: [row.hint_en, row.hint_ne],
        caption: row.image_svg === null ? [null, null] : [row.image_caption_en, row.image_caption_ne],
      })
      if (stored) await sql`update question_revisions set maths = ${stored} where id = ${row.id}`.execute(db)
    }

    const options = (
      await sql<{
        id: number
        text_en: string
        text_ne: string
        image_svg: string | null
        image_caption_en: string
        image_caption_ne: string
      }>`
      select id, text_en, text_ne, image_svg, image_caption_en, image_caption_ne from question_options
      where text_en like '%$%' or text_ne like '%$%' or image_caption_en like '%$%' or image_caption_ne like '%$%'`.execute(
        db,
      )
    ).rows
    for (const row of options) {
      const stored = renderedFields({
        text: [row.text_en, row.text_ne],
        caption: row.image_svg === null ? [null, null] : [row.image_caption_en, row.image_caption_ne],
      })
      if (stored) await sql`update question_options set maths = ${stored} where id = ${row.id}`.execute(db)
    }
  },
})
