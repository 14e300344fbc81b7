import { project, type Homography } from './homography'
import { OPTION_PITCH_MM, QUESTION_NUMBER_MM, ROW_PITCH_MM, type SheetLayout } from '../sheet/sheet-layout'

/** A region of the photo as fractions (0..1) of the upright photo, so it fits every size of it. */
export interface PhotoBox {
  x: number
  y: number
  width: number
  height: number
  /** The quarter turn, clockwise, the page lies at in the photo: a close-up turns back by it to stand the row up. */
  turn: 0 | 90 | 180 | 270
}

interface PageRect {
  left: number
  top: number
  right: number
  bottom: number
}

/** Four decimals: a fifth of a pixel on a 2,000 px photo, and short in the stored JSON. */
const fraction = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000

/** The axis-aligned box around the page rectangle's four corners as the transform places them (tilt widens it). */
export function photoBox(size: { width: number; height: number }, toImage: Homography, rect: PageRect): PhotoBox {
  const corners = [
    project(toImage, rect.left, rect.top),
    project(toImage, rect.right, rect.top),
    project(toImage, rect.right, rect.bottom),
    project(toImage, rect.left, rect.bottom),
  ]
  const x0 = fraction(Math.min(...corners.map((p) => p.x)) / size.width)
  const x1 = fraction(Math.max(...corners.map((p) => p.x)) / size.width)
  const y0 = fraction(Math.min(...corners.map((p) => p.y)) / size.height)
  const y1 = fraction(Math.max(...corners.map((p) => p.y)) / size.height)
  return {
    x: x0,
    y: y0,
    width: fraction(x1 - x0),
    height: fraction(y1 - y0),
    turn: quarterTurn(corners[0]!, corners[1]!),
  }
}

/** The page's left-to-right, as the photo shows it, to the nearest quarter turn (image y runs down: clockwise). */
function quarterTurn(left: { x: number; y: number }, right: { x: number; y: number }): PhotoBox['turn'] {
  const quarters = Math.round(Math.atan2(right.y - left.y, right.x - left.x) / (Math.PI / 2))
  return ((((quarters % 4) + 4) % 4) * 90) as PhotoBox['turn']
}

/** A question's row: its printed number through its last bubble, one row pitch high (so no neighbour row's). */
export function questionRect(question: SheetLayout['questions'][number]): PageRect {
  const first = question.options[0]!
  const last = question.options[question.options.length - 1]!
  return {
    left: first.x_mm - QUESTION_NUMBER_MM,
    top: first.y_mm - ROW_PITCH_MM / 2,
    right: last.x_mm + last.r_mm + 0.5,
    bottom: first.y_mm + ROW_PITCH_MM / 2,
  }
}

export function rollRect(layout: SheetLayout): PageRect {
  const first = layout.roll[0]!.digits[0]!
  const last = layout.roll[layout.roll.length - 1]!.digits[9]!
  return {
    left: first.x_mm - first.r_mm - 1,
    top: first.y_mm - first.r_mm - 1,
    right: last.x_mm + last.r_mm + 1,
    bottom: last.y_mm + last.r_mm + 1,
  }
}

/** The set row: its "Set" label (two pitches left of the first bubble) through its last bubble. */
export function setRect(layout: SheetLayout): PageRect {
  const first = layout.set[0]!
  const last = layout.set[layout.set.length - 1]!
  return {
    left: first.x_mm - 2 * OPTION_PITCH_MM,
    top: first.y_mm - ROW_PITCH_MM / 2,
    right: last.x_mm + last.r_mm + 1,
    bottom: first.y_mm + ROW_PITCH_MM / 2,
  }
}

/** A numeric grid: its printed number (left of the sign bubble) through its last digit row. */
export function gridRect(grid: SheetLayout['numeric'][number]): PageRect {
  const bubbles = grid.columns.flatMap((column) => column.bubbles)
  const r = Math.max(...bubbles.map((b) => b.r_mm)) + 0.5
  return {
    left: Math.min(...bubbles.map((b) => b.x_mm)) - QUESTION_NUMBER_MM,
    top: Math.min(...bubbles.map((b) => b.y_mm)) - r,
    right: Math.max(...bubbles.map((b) => b.x_mm)) + r,
    bottom: Math.max(...bubbles.map((b) => b.y_mm)) + r,
  }
}
