import QRCode from 'qrcode'
import { OPTION_LETTERS, type OptionLabels, type SheetLayout, type SheetSet } from './sheet-layout'

/** Who the sheet is for: a roster learner (roll and set printed filled) or a walk-in (empty, with a serial). */
export type SheetHolder =
  { kind: 'roster'; learnerName: string; rollNumber: number; set: SheetSet } | { kind: 'blank'; serial: number }

export interface SheetSvgInput {
  layout: SheetLayout
  labels: OptionLabels
  qrPayload: string
  quizTitle: string
  /** The sitting's own title, when it is not the quiz's: printed under the quiz's name. */
  sittingTitle?: string
  holder: SheetHolder
  /** The paper also has written questions: they have no row here, and the sheet says where they are answered. */
  hasWritten?: boolean
  /** Extra SVG drawn last (the photo generator draws learners' marks here). */
  overlay?: string
}

const INK = '#000'
const OUTLINE = '#555'
/** Letters inside bubbles print light, so an empty bubble stays near paper white for the reader. */
const BUBBLE_LETTER = '#bdbdbd'
const FONT = "'Noto Sans', 'Noto Sans Devanagari', 'Mukta', sans-serif"

/** Characters XML 1.0 cannot hold at all (control characters but tab and newlines, U+FFFE, U+FFFF) are dropped. */
const isXmlChar = (ch: string) => {
  const code = ch.codePointAt(0)!
  return code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 0xfffe && code !== 0xffff)
}

export function escapeXml(text: string): string {
  return [...String(text)]
    .filter(isXmlChar)
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
}

const mm = (n: number) => Number(n.toFixed(3)).toString()

function truncate(text: string, max: number) {
  const chars = [...text]
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : text
}

function text(x: number, y: number, size: number, content: string, extra = '') {
  return `<text x="${mm(x)}" y="${mm(y)}" font-size="${mm(size)}" ${extra}>${escapeXml(content)}</text>`
}

function bubble(x: number, y: number, r: number, label: string, filled: boolean) {
  const circle = `<circle cx="${mm(x)}" cy="${mm(y)}" r="${mm(r)}" fill="${filled ? INK : 'none'}" stroke="${OUTLINE}" stroke-width="0.25"/>`
  if (filled) return circle
  return `${circle}<text x="${mm(x)}" y="${mm(y + r * 0.42)}" font-size="${mm(r * 1.05)}" fill="${BUBBLE_LETTER}" text-anchor="middle">${escapeXml(label)}</text>`
}

export function qrPath(payload: string, layout: Pick<SheetLayout, 'qr'>) {
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'Q' })
  const size = qr.modules.size
  const module = layout.qr.size_mm / size
  const left = layout.qr.x_mm - layout.qr.size_mm / 2
  const top = layout.qr.y_mm - layout.qr.size_mm / 2
  let d = ''
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++)
      if (qr.modules.get(row, col))
        d += `M${mm(left + col * module)} ${mm(top + row * module)}h${mm(module)}v${mm(module)}h${mm(-module)}z`
  return `<path d="${d}" fill="${INK}" shape-rendering="crispEdges"/>`
}

/** One A4 answer sheet as SVG, in millimetres (width="210mm" so it prints at true size from any browser). */
export function renderSheetSvg({
  layout,
  labels,
  qrPayload,
  quizTitle,
  sittingTitle,
  holder,
  hasWritten = false,
  overlay = '',
}: SheetSvgInput): string {
  const { width_mm: width, height_mm: height } = layout.page
  const parts: string[] = []
  parts.push(`<rect width="${width}" height="${height}" fill="#fff"/>`)
  for (const m of layout.markers)
    parts.push(
      `<rect x="${mm(m.x_mm - m.size_mm / 2)}" y="${mm(m.y_mm - m.size_mm / 2)}" width="${mm(m.size_mm)}" height="${mm(m.size_mm)}" fill="${INK}"/>`,
    )
  parts.push(qrPath(qrPayload, layout))

  parts.push(text(20, 22, 4.2, truncate(quizTitle, 34), 'font-weight="bold"'))
  if (sittingTitle) parts.push(text(20, 26.2, 2.8, truncate(sittingTitle, 50)))
  if (holder.kind === 'roster') {
    parts.push(text(20, 30, 3.6, truncate(holder.learnerName, 36)))
    parts.push(text(20, 37, 3.4, `Roll number ${String(holder.rollNumber).padStart(6, '0')}  ·  Set ${holder.set}`))
  } else {
    parts.push(text(20, 30, 3.6, 'Name: ________________________'))
    parts.push(text(20, 37, 3.4, `Sheet ${holder.serial}: fill your roll number and set.`))
  }
  parts.push(text(20, 45, 2.6, 'Fill one bubble a question fully, with a dark pen or pencil.', `fill="${OUTLINE}"`))
  if ((layout.numeric ?? []).length > 0)
    parts.push(
      text(20, 53, 2.6, 'Numbers: a digit a column, − if negative, . where the point goes.', `fill="${OUTLINE}"`),
    )
  if (hasWritten)
    parts.push(
      text(
        20,
        49,
        2.6,
        'Numbers missing here are written questions: answer them in your booklet.',
        `fill="${OUTLINE}"`,
      ),
    )

  const rollDigits = holder.kind === 'roster' ? String(holder.rollNumber).padStart(layout.roll.length, '0') : ''
  const firstRoll = layout.roll[0]?.digits[0]
  if (firstRoll) parts.push(text(firstRoll.x_mm - 3, firstRoll.y_mm - 4.5, 2.8, 'Roll number'))
  for (const column of layout.roll)
    for (const d of column.digits)
      parts.push(bubble(d.x_mm, d.y_mm, d.r_mm, String(d.digit), rollDigits[column.column] === String(d.digit)))

  const firstSet = layout.set[0]
  if (firstSet) parts.push(text(firstSet.x_mm - 12, firstSet.y_mm + 1.2, 3.2, 'Set'))
  for (const s of layout.set)
    parts.push(bubble(s.x_mm, s.y_mm, s.r_mm, s.set, holder.kind === 'roster' && holder.set === s.set))

  const letters = OPTION_LETTERS[labels]
  for (const question of layout.questions) {
    const first = question.options[0]
    if (!first) continue
    parts.push(text(first.x_mm - 4, first.y_mm + 1.1, 3, String(question.number), 'text-anchor="end"'))
    question.options.forEach((o, i) => parts.push(bubble(o.x_mm, o.y_mm, o.r_mm, letters[i] ?? o.label, false)))
  }

  // Numeric grids: the number beside the sign bubble, the point's places between the digit columns (decision 129).
  for (const grid of layout.numeric ?? []) {
    const sign = grid.columns[0]?.bubbles[0]
    if (!sign) continue
    parts.push(text(sign.x_mm - 4, sign.y_mm + 1.1, 3, String(grid.question), 'text-anchor="end"'))
    for (const column of grid.columns)
      for (const b of column.bubbles) parts.push(bubble(b.x_mm, b.y_mm, b.r_mm, b.label, false))
  }

  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}mm" height="${height}mm" viewBox="0 0 ${width} ${height}" font-family="${FONT}">` +
    parts.join('') +
    overlay +
    `</svg>`
  )
}
