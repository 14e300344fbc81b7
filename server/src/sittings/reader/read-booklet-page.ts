import { bubbleFill } from './bubble-fill'
import { fitAndRead, RESIDUAL_MM } from './fit-page'
import { MIN_RING_CONTRAST, sightBlocks } from './bubble-sight'
import { percentile, type GreyImage, type Point } from './grey-image'
import { project, type Homography } from './homography'
import { BLANK_FILL, MARK_FILL } from './mark-decisions'
import { photoBox, rollRect, type PhotoBox } from './photo-box'
import {
  markerPlace,
  openPage,
  readRoll,
  REFUSAL_MESSAGES,
  ROLL_BUBBLES,
  type LocatedPage,
  type SheetRefusal,
} from './read-sheet'
import { verifyBookletCode, type BookletCode } from '../booklet/booklet-code'
import {
  buildBookletLayout,
  hasRollGrid,
  MARKED_REGION_MM,
  QUESTIONS_PER_ROW,
  questionRowRect,
  type BookletLayout,
} from '../booklet/booklet-layout'
import { buildSheetLayout } from '../sheet/sheet-layout'

/** What a booklet page's photo says (docs/decisions/075). */
export interface BookletPageReading {
  ok: true
  code: BookletCode
  /** Question numbers whose bubbles are filled. */
  marked: number[]
  /** Question numbers whose bubbles are neither clearly filled nor clearly empty, or could not be seen. */
  doubtful: number[]
  /** The roll grid's reading on a page that has one (a blank booklet's page, a spare page); else undefined. */
  roll?: number | null | 'unclear'
  boxes: { questions: PhotoBox; roll: PhotoBox | null }
  /** The part of the page markers see, as corners in fractions of the upright photo and its quarter turn (089). */
  answerRegion: { corners: Point[]; turn: PhotoBox['turn'] }
}

export type BookletPageRefusal = SheetRefusal

export type BookletPageResult = BookletPageReading | { ok: false; refusal: BookletPageRefusal; message: string }

export interface ReadBookletOptions {
  secret: string | Buffer
  sittingId: number
  /** The question numbers the page's bubble row prints, from its code (a blank booklet's: every set's). */
  numbersFor: (code: BookletCode) => readonly number[] | null
}

/** Bubbles of a row looked for together: enough rings to lock on, few enough that a bend is straight across them. */
const BLOCK_BUBBLES = 4

const SHEET_PARTS = buildSheetLayout({ questionCount: 1, optionCounts: [2], labels: 'latin' })

/** Retake advice: the answer sheet's sentences, which hold for a booklet page as well. */
const ADVICE: Record<BookletPageRefusal, string> = {
  ...REFUSAL_MESSAGES,
  qr: 'The QR code cannot be read: photograph the page flat, with the QR code at the top right sharp and free of glare.',
  wrong_sitting:
    'This page was not printed for this sitting: its QR code belongs to another sitting or does not verify.',
}

/** A photo refused as a booklet page, with the sentence a teacher retakes it by. */
export const refusePage = (refusal: BookletPageRefusal): BookletPageResult => ({
  ok: false,
  refusal,
  message: ADVICE[refusal],
})

/** The question bubbles, each filled, empty or doubtful, read through the sheet's page model (decision 115). */
function readQuestions(image: GreyImage, located: LocatedPage, layout: BookletLayout) {
  const rows: BookletLayout['questions'][] = []
  for (let i = 0; i < layout.questions.length; i += QUESTIONS_PER_ROW)
    rows.push(layout.questions.slice(i, i + QUESTIONS_PER_ROW))
  // Each row is a run of short blocks, found each near the one before, as a sheet's column (074); where they were
  // found fits the page model with the markers' corners, and each block is read again through it.
  const toFit = rows.flatMap((row) => {
    const blocks: BookletLayout['questions'][] = []
    for (let i = 0; i < row.length; i += BLOCK_BUBBLES) blocks.push(row.slice(i, i + BLOCK_BUBBLES))
    return sightBlocks(image, located.toImage, blocks, located.reach).map((found, b) => {
      const seen = found.filter((s) => s.contrast >= MIN_RING_CONTRAST && !s.glare).length >= found.length * 0.75
      const first = found[0]!
      return {
        bubbles: blocks[b]!,
        found: seen ? { x: first.at.x_mm - first.bubble.x_mm, y: first.at.y_mm - first.bubble.y_mm } : null,
      }
    })
  })
  const { regions } = fitAndRead(image, located.toImage, [located.controls, located.cornerControls], toFit)
  const typical = percentile(
    regions.flatMap((r) => r.sighted.map((s) => s.contrast)),
    0.5,
  )
  const marked: number[] = []
  const doubtful: number[] = []
  for (const region of regions)
    for (const s of region.sighted) {
      const fill = bubbleFill(image, region.toImage, located.levels, s.at)
      const unseen = s.contrast < MIN_RING_CONTRAST || (s.glare && s.contrast < 0.6 * typical)
      if (unseen || region.residualMm > RESIDUAL_MM) doubtful.push(s.bubble.number)
      else if (fill >= MARK_FILL) marked.push(s.bubble.number)
      else if (fill >= BLANK_FILL) doubtful.push(s.bubble.number)
    }
  return { marked, doubtful }
}

/** The marked region's corners in fractions of the photo (unclamped: a page's edge may lie outside it). */
function answerRegion(image: GreyImage, h: Homography): BookletPageReading['answerRegion'] {
  const { left, top, right, bottom } = MARKED_REGION_MM
  const corners = [
    [left, top],
    [right, top],
    [right, bottom],
    [left, bottom],
  ].map(([x, y]) => {
    const p = project(h, x!, y!)
    return { x: p.x / image.width, y: p.y / image.height }
  })
  return { corners, turn: photoBox(image, h, MARKED_REGION_MM).turn }
}

/** A booklet page's reading once its page is located: its code, question bubbles and roll grid. */
export function readLocatedBookletPage(
  image: GreyImage,
  located: LocatedPage,
  options: ReadBookletOptions,
): BookletPageResult {
  const { toImage, levels, payload } = located
  // A page three markers placed is read only as an answer sheet, whose rows' rings check the placement (issue 79).
  if (located.missing !== null) return refusePage('corners')
  const verified = verifyBookletCode(payload, options.secret, options.sittingId)
  if (!verified.ok) return refusePage('wrong_sitting')
  const { code } = verified
  const numbers = options.numbersFor(code)
  if (!numbers || numbers.length === 0) return refusePage('wrong_sitting')
  const rollGrid = hasRollGrid(code)
  const layout = buildBookletLayout({ numbers, rollGrid })
  const { marked, doubtful } = readQuestions(image, located, layout)
  const roll = rollGrid
    ? readRoll(image, markerPlace(image, located, rollRect(SHEET_PARTS), ROLL_BUBBLES), levels)
    : undefined
  return {
    ok: true,
    code,
    marked,
    doubtful,
    ...(rollGrid ? { roll } : {}),
    boxes: {
      questions: photoBox(image, toImage, questionRowRect(layout)),
      roll: rollGrid ? photoBox(image, toImage, rollRect(SHEET_PARTS)) : null,
    },
    answerRegion: answerRegion(image, toImage),
  }
}

/** Reads a photographed booklet page; never throws on bad input (decision 075 "In the code"). */
export async function readBookletPage(photo: Buffer, options: ReadBookletOptions): Promise<BookletPageResult> {
  const opened = await openPage(photo)
  if (typeof opened === 'string') return refusePage(opened)
  return readLocatedBookletPage(opened.image, opened.located, options)
}
