import { answerBookletInstructions } from '@quiz/contracts'
import { escapeXml, qrPath } from '../sheet/sheet-svg'
import type { BookletLayout } from './booklet-layout'

/** Whose page it is: a roster learner's (named), a blank booklet's or a spare page (a serial, a roll grid). */
export type BookletHolder =
  | { kind: 'roster'; learnerName: string; rollNumber: number }
  | { kind: 'blank'; serial: number }
  | { kind: 'spare'; serial: number }

export interface BookletSvgInput {
  layout: BookletLayout
  qrPayload: string
  quizTitle: string
  sittingTitle?: string
  holder: BookletHolder
  /** The page's number and the booklet's pages; null for a spare page. */
  page: { number: number; of: number } | null
  /** Extra SVG drawn last (the photo generator's handwriting and marks). */
  overlay?: string
}

const INK = '#000'
const OUTLINE = '#555'
const RULE = '#cfcfcf'
const FONT = "'Noto Sans', 'Noto Sans Devanagari', 'Mukta', sans-serif"
const mm = (n: number) => Number(n.toFixed(3)).toString()

const text = (x: number, y: number, size: number, content: string, extra = '') =>
  `<text x="${mm(x)}" y="${mm(y)}" font-size="${mm(size)}" ${extra}>${escapeXml(content)}</text>`

function truncate(value: string, max: number) {
  const chars = [...value]
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : value
}

const circle = (x: number, y: number, r: number, fill: string) =>
  `<circle cx="${mm(x)}" cy="${mm(y)}" r="${mm(r)}" fill="${fill}" stroke="${OUTLINE}" stroke-width="0.25"/>`

/** One A4 booklet page as SVG in millimetres (width="210mm": it prints at true size from any browser). */
export function renderBookletSvg({
  layout,
  qrPayload,
  quizTitle,
  sittingTitle,
  holder,
  page,
  overlay = '',
}: BookletSvgInput): string {
  const { width_mm: width, height_mm: height } = layout.page
  const parts: string[] = [`<rect width="${width}" height="${height}" fill="#fff"/>`]
  for (const m of layout.markers)
    parts.push(
      `<rect x="${mm(m.x_mm - m.size_mm / 2)}" y="${mm(m.y_mm - m.size_mm / 2)}" width="${mm(m.size_mm)}" height="${mm(m.size_mm)}" fill="${INK}"/>`,
    )
  parts.push(qrPath(qrPayload, layout))

  parts.push(text(20, 22, 4.2, truncate(quizTitle, layout.roll.length > 0 ? 30 : 44), 'font-weight="bold"'))
  if (sittingTitle) parts.push(text(20, 26.2, 2.8, truncate(sittingTitle, 50)))
  parts.push(text(20, 31, 3, 'Written answers · लिखित उत्तर'))
  if (holder.kind === 'roster') {
    parts.push(text(20, 38, 3.6, truncate(holder.learnerName, 40)))
    parts.push(text(20, 44.5, 3.4, `Roll number ${String(holder.rollNumber).padStart(6, '0')}`))
  } else {
    parts.push(text(20, 38, 3.4, 'Name: ______________________'))
    parts.push(
      text(
        20,
        44.5,
        3,
        holder.kind === 'spare'
          ? `Spare page ${holder.serial}: fill your roll number.`
          : layout.roll.length > 0
            ? `Booklet ${holder.serial}: fill your roll number.`
            : `Booklet ${holder.serial}`,
      ),
    )
  }
  if (page) parts.push(text(20, 56, 6, `Page ${page.number} / ${page.of}`, 'font-weight="bold"'))
  else parts.push(text(20, 56, 6, 'Spare page · थप पाना', 'font-weight="bold"'))

  const firstRoll = layout.roll[0]?.digits[0]
  if (firstRoll) parts.push(text(firstRoll.x_mm - 3, firstRoll.y_mm - 4.5, 2.8, 'Roll number'))
  for (const column of layout.roll)
    for (const d of column.digits) {
      parts.push(circle(d.x_mm, d.y_mm, d.r_mm, 'none'))
      parts.push(
        text(d.x_mm, d.y_mm + d.r_mm * 0.42, d.r_mm * 1.05, String(d.digit), 'fill="#bdbdbd" text-anchor="middle"'),
      )
    }

  const first = layout.questions[0]!
  parts.push(text(first.x_mm - 3, first.y_mm - 8.5, 3, 'This page answers question(s) · यो पानाले उत्तर दिएका प्रश्न:'))
  for (const q of layout.questions) {
    parts.push(text(q.x_mm, q.y_mm - q.r_mm - 1.2, 2.6, String(q.number), 'text-anchor="middle"'))
    parts.push(circle(q.x_mm, q.y_mm, q.r_mm, 'none'))
  }

  const area = layout.answer_area
  let top = area.top_mm
  if (page?.number === 1) {
    const lines = [...answerBookletInstructions.en, ...answerBookletInstructions.ne]
    lines.forEach((line, i) => parts.push(text(area.left_mm, top + i * 4.2, 2.7, line, `fill="${OUTLINE}"`)))
    top += lines.length * 4.2 + 4
  }
  for (let y = top + 8; y <= area.bottom_mm; y += 8)
    parts.push(
      `<line x1="${mm(area.left_mm)}" y1="${mm(y)}" x2="${mm(area.right_mm)}" y2="${mm(y)}" stroke="${RULE}" stroke-width="0.2"/>`,
    )
  const footer = page ? `Page ${page.number} / ${page.of}` : 'Spare page'
  parts.push(text(width / 2, height - 8, 3, footer, 'text-anchor="middle"'))

  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}mm" height="${height}mm" viewBox="0 0 ${width} ${height}" font-family="${FONT}">` +
    parts.join('') +
    overlay +
    `</svg>`
  )
}
