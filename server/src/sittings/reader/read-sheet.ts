import { decodeRaster } from '../../lib/decode-gate'
import { bubbleFill, measurePageLevels, type PageLevels } from './bubble-fill'
import {
  BENT_REACH_MM,
  centreOf,
  columnEnd,
  FIRST_REACH_MM,
  MIN_RING_ARC,
  MIN_RING_CONTRAST,
  sightBlocks,
  sightColumn,
  type SightedBubble,
} from './bubble-sight'
import { fitAndRead, fitModel, readThroughModel, RESIDUAL_MM, type RegionToFit } from './fit-page'
import { decodeSheetQr, type SheetQr } from './decode-qr'
import { findMarkerQuads, findMarkerTriples, markerBlobs, type Blob } from './find-markers'
import { percentile, type GreyImage, type Point } from './grey-image'
import { invertHomography, project, solveHomography, type Homography } from './homography'
import { fitPageModel, modelOffset, regionHomography, type ModelControl, type PageRect } from './page-model'
import { BLANK_FILL, decideChoice } from './mark-decisions'
import { gridRect, photoBox, questionRect, rollRect, setRect, type PhotoBox } from './photo-box'
import { readNumber } from '@quiz/contracts/rules/numbers'
import { controlsFrom, growRings, homographyThroughRings, ringSeeds } from './place-by-rings'
import { refineByMarkerEdges } from './refine-markers'
import { edgeSharpness } from './sharpness'
import { verifySheetCode, type SheetCode } from '../sheet/sheet-code'
import {
  buildSheetLayout,
  MINUS_LABEL,
  type Bubble,
  type NumericColumnKind,
  type SheetLayout,
  type SheetSet,
} from '../sheet/sheet-layout'

export const MAX_PHOTO_PIXELS = 50_000_000
/** The long side the photo is read at: bubbles are still about 9 px across when the sheet fills 60 % of it. */
export const WORKING_SIDE = 1800
const ACCEPTED_FORMATS = ['jpeg', 'png', 'webp']
/** Below this (grey levels per mm, as a share of ink-to-paper) the markers' edges are too soft to trust. */
const MIN_SHARPNESS = 0.6
/** How far (page mm) the QR's finder patterns may sit from where the layout prints them on a rightly placed page. */
const FINDER_TOLERANCE_MM = 1.5
/**
 * On a page a wide lens or a curl bends, the finders sit up to this far from where the markers place them; such a
 * placement is taken only when no page meets the tighter tolerance, and the rings then check it (decision 115).
 */
const BENT_FINDER_TOLERANCE_MM = 3
/**
 * Two markers on a curled edge, both lifted, move the transform through the four so that the QR code's finders sit
 * up to this far from it (and the middle of the page as far): such a placement is taken only when no other is, and
 * read as a bent page, the rows looked for further around it (decision 115).
 */
const CURLED_FINDER_TOLERANCE_MM = 7
/** How far (page mm) a marker's corner may sit from where the fitted transform puts it. */
const CORNER_TOLERANCE_MM = 0.5
/**
 * Markers that are solid squares but meet one transform only within this (mm): the page is bent, not misplaced,
 * and the page model reads it (decision 115); past it the markers are not the sheet's, or it is folded at a corner.
 */
const BENT_MM = 8

export type SheetRefusal =
  | 'not_an_image'
  | 'too_large'
  | 'too_costly'
  | 'corners'
  | 'not_flat'
  | 'glare'
  | 'blurred'
  | 'dark'
  | 'qr'
  | 'wrong_sitting'

export const REFUSAL_MESSAGES: Record<SheetRefusal, string> = {
  not_an_image: 'The file is not a photo: send a JPEG, PNG or WebP picture of the sheet.',
  too_large: 'The photo is over 50 megapixels: send the photo as the phone camera takes it.',
  too_costly:
    'The photo takes too long to read (over 64 JPEG scans, or over 10 s): send the photo as the phone camera takes it.',
  corners: 'All four corner squares must be in the photo.',
  not_flat: 'Lay the sheet flat: it is folded or curled, or the phone is too close.',
  glare: 'Move away from the light: there is glare on the bubbles.',
  blurred: 'The photo is too blurred.',
  dark: 'The photo is too dark.',
  qr: 'The QR code cannot be read: photograph the sheet flat, with the QR code at the top right sharp and free of glare.',
  wrong_sitting:
    'This sheet was not printed for this sitting: its QR code belongs to another sitting or does not verify.',
}

/** `doubtful` (a `multiple` row's faint bubbles beside its marks) settles whether a multiple question's row is read. */
export type SheetAnswer = string | null | { flag: 'multiple' | 'unclear'; marks: string[]; doubtful?: string[] }

/** A numeric grid's reading: the number read (shortest form), null when blank, or a flag with what was seen. */
export type NumericAnswer = string | null | { flag: 'numeric_unclear'; marks: string[] }

export interface SheetReading {
  ok: true
  code: SheetCode
  /** The roll number filled on the grid; null when the grid is empty, 'unclear' when a column cannot be read. */
  roll: number | null | 'unclear'
  set: SheetSet | null | 'unclear'
  /** Per row of the layout, in its order, with where the row is in the photo; null when `layoutFor` gave no layout. */
  answers: { number: number; answer: SheetAnswer; box: PhotoBox }[] | null
  /** Per numeric grid of the layout (decision 129), with where it is in the photo; null without a layout. */
  numeric?: { number: number; answer: NumericAnswer; box: PhotoBox }[] | null
  /** Where the roll-number grid and the set row are in the photo, for a person settling them. */
  boxes: { roll: PhotoBox; set: PhotoBox }
}

export type SheetReadResult = SheetReading | { ok: false; refusal: SheetRefusal; message: string }

export interface ReadSheetOptions {
  secret: string | Buffer
  sittingId: number
  /** The layout the sheet's questions were drawn with: its set is the roster's, or the one read from a blank sheet. */
  layoutFor: (code: SheetCode, set: SheetSet | null) => SheetLayout | null
}

const FIXED_PARTS = buildSheetLayout({ questionCount: 1, optionCounts: [2], labels: 'latin' })

const refuse = (refusal: SheetRefusal): SheetReadResult => ({ ok: false, refusal, message: REFUSAL_MESSAGES[refusal] })

export async function loadGrey(photo: Buffer): Promise<GreyImage | SheetRefusal> {
  const rules = { maxPixels: MAX_PHOTO_PIXELS, formats: ACCEPTED_FORMATS, failOn: 'truncated' as const }
  const decoded = await decodeRaster(photo, rules, (image) =>
    image
      .rotate()
      .resize(WORKING_SIDE, WORKING_SIDE, { fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true }),
  )
  if (decoded === 'too_many_pixels') return 'too_large'
  if (typeof decoded === 'string') return decoded
  // Rec. 601 luma by hand: sharp's colour-managed greyscale() costs more than the decoding itself.
  const { data, info } = decoded
  const { width, height, channels } = info
  const grey = new Uint8Array(width * height)
  if (channels >= 3)
    for (let i = 0, k = 0; i < grey.length; i++, k += channels)
      grey[i] = (data[k]! * 77 + data[k + 1]! * 150 + data[k + 2]! * 29) >> 8
  else for (let i = 0; i < grey.length; i++) grey[i] = data[i * channels]!
  return { data: grey, width, height }
}

/**
 * Whether the 0.9 percentile of every 97th pixel is under 50: counted, not sorted, as the value at that index of
 * the sorted sample is under 50 exactly when more than `index` of the sample are.
 */
export function isTooDark(image: GreyImage): boolean {
  let count = 0
  let dark = 0
  for (let i = 0; i < image.data.length; i += 97) {
    count++
    if (image.data[i]! < 50) dark++
  }
  if (count === 0) return true
  return dark > Math.min(count - 1, Math.max(0, Math.round(0.9 * (count - 1))))
}

/** A marker's corner counts this many blocks of rings in the page model: it is found to a tenth of a mm. */
const MARKER_WEIGHT = 4
/** The surface through the markers alone (for the QR code of a bent page) follows them closely. */
const MARKER_STIFFNESS = 0.001

const MARKER_CENTRES = FIXED_PARTS.markers.map((m) => ({ x: m.x_mm, y: m.y_mm }))
/** The page turned half a turn: the markers sit symmetrically, so it takes each one onto another. */
const HALF_TURN = [-1, 0, FIXED_PARTS.page.width_mm, 0, -1, FIXED_PARTS.page.height_mm, 0, 0, 1]

/**
 * The transform from the marker centres for both ways the page can lie: the one whose QR decodes; with each
 * marker's blob in the layout's order of markers, for measuring a bent marker by its own shape.
 */
function roughPlacements(quad: readonly Blob[]): { rough: Homography; blobs: Blob[] }[] {
  const side = (i: number) => Math.hypot(quad[(i + 1) % 4]!.x - quad[i]!.x, quad[(i + 1) % 4]!.y - quad[i]!.y)
  const first = side(0) + side(2) < side(1) + side(3) ? 0 : 1
  return [first, 1 - first].flatMap((shift) => {
    const blobs = [0, 1, 2, 3].map((i) => quad[(i + shift) % 4]!)
    const h = solveHomography(MARKER_CENTRES, blobs)
    return h ? [{ rough: h, blobs }] : []
  })
}

function compose(h: Homography, g: readonly number[]): Homography {
  const out = new Array<number>(9).fill(0)
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      for (let k = 0; k < 3; k++) out[r * 3 + c] = out[r * 3 + c]! + h[r * 3 + k]! * g[k * 3 + c]!
  return out.map((value) => value / out[8]!)
}

/** Whether the whole page, as the found corners place it, is in the photo: if not, a corner was mistaken. */
function isPageInside(image: GreyImage, toImage: Homography): boolean {
  return [
    [0, 0],
    [FIXED_PARTS.page.width_mm, 0],
    [FIXED_PARTS.page.width_mm, FIXED_PARTS.page.height_mm],
    [0, FIXED_PARTS.page.height_mm],
  ].every(([x, y]) => {
    const p = project(toImage, x!, y!)
    return p.x >= 0 && p.y >= 0 && p.x < image.width && p.y < image.height
  })
}

/** Rows of a block looked for together: enough rings to lock on, few enough that a bend is straight across them. */
const BLOCK_ROWS = 4
/** Over this share of a sheet's questions under glare, the photo is retaken rather than the sheet flagged. */
const GLARE_REFUSAL_SHARE = 0.3
/** Under clipped white, a ring fainter than this share of the usual is not trusted (glare). */
const GLARE_FAINT = 0.7

type Choice<T> = ReturnType<typeof decideChoice<T>>

/** What a row of sighted bubbles says: a ring not seen makes the row unclear, not blank. */
function decideSighted<T, B extends Bubble>(
  image: GreyImage,
  h: Homography,
  levels: PageLevels,
  row: readonly SightedBubble<B>[],
  valueOf: (b: B) => T,
  typical: number,
): Choice<T> {
  const fills = row.map((s) => ({ value: valueOf(s.bubble), fill: bubbleFill(image, h, levels, s.at) }))
  if (row.some((s) => isUnseen(s, typical)))
    return { kind: 'unclear', marks: fills.filter((f) => f.fill >= BLANK_FILL).map((f) => f.value) }
  return decideChoice(fills)
}

/** Whether a bubble cannot be read: its ring unseen, or washed out in clipped white (glare). */
const isUnseen = (s: SightedBubble<Bubble>, typical: number) =>
  s.contrast < MIN_RING_CONTRAST || (s.glare && s.contrast < GLARE_FAINT * typical)

const typicalContrast = (sighted: readonly SightedBubble<Bubble>[]) =>
  percentile(
    sighted.map((s) => s.contrast),
    0.5,
  )

export function readRoll(image: GreyImage, place: MarkerPlace<Bubble>, levels: PageLevels): SheetReading['roll'] {
  const { toImage: h, sighted } = place
  const typical = typicalContrast(sighted)
  const digits: (number | null)[] = []
  FIXED_PARTS.roll.forEach((column, c) => {
    const row = sighted.slice(c * column.digits.length, (c + 1) * column.digits.length) as SightedBubble<
      (typeof column.digits)[number]
    >[]
    const choice = decideSighted(image, h, levels, row, (d) => d.digit, typical)
    digits.push(choice.kind === 'one' ? choice.value : choice.kind === 'none' ? null : -1)
  })
  if (digits.includes(-1)) return 'unclear'
  const firstFilled = digits.findIndex((d) => d !== null)
  if (firstFilled < 0) return null
  // Leading columns may be left empty by a walk-in; an empty column after a filled one is a gap, not a zero.
  const rest = digits.slice(firstFilled)
  if (rest.some((d) => d === null)) return 'unclear'
  return Number(rest.join(''))
}

function readSet(image: GreyImage, place: MarkerPlace<Bubble>, levels: PageLevels): SheetReading['set'] {
  const sighted = place.sighted as SightedBubble<(typeof FIXED_PARTS.set)[number]>[]
  const choice = decideSighted(image, place.toImage, levels, sighted, (s) => s.set, typicalContrast(sighted))
  if (choice.kind === 'one') return choice.value
  return choice.kind === 'none' ? null : 'unclear'
}

function questionRuns(layout: SheetLayout) {
  const columns = new Map<number, SheetLayout['questions']>()
  for (const question of layout.questions) {
    const x = question.options[0]!.x_mm
    columns.set(x, [...(columns.get(x) ?? []), question])
  }
  return [...columns.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, column]) => {
      const rows = [...column].sort((a, b) => a.options[0]!.y_mm - b.options[0]!.y_mm)
      const blocks: SheetLayout['questions'][] = []
      for (let i = 0; i < rows.length; i += BLOCK_ROWS) blocks.push(rows.slice(i, i + BLOCK_ROWS))
      return blocks
    })
}

type SightedOption = SightedBubble<SheetLayout['questions'][number]['options'][number]>

/** Every question's bubbles found again, column by column from the left (docs/decisions/074). */
export function sightQuestions(image: GreyImage, h: Homography, layout: SheetLayout, reach = FIRST_REACH_MM) {
  const byNumber = new Map<number, SightedOption[]>()
  const columns: { blocks: SheetLayout['questions'][]; found: SightedOption[][]; clear: boolean }[] = []
  let from = { x: 0, y: 0 }
  let bent = false
  for (const run of questionRuns(layout)) {
    const column = sightColumn(
      image,
      h,
      run.map((block) => block.flatMap((q) => q.options)),
      from,
      // The first column is looked for around the markers' place, each next one around the column before it.
      columns.length === 0 ? reach : FIRST_REACH_MM,
      reach > FIRST_REACH_MM,
    )
    from = column.start
    if (!column.endsClear) bent = true
    columns.push({ blocks: run, found: column.blocks, clear: column.endsClear })
    run.forEach((block, b) => {
      let at = 0
      for (const question of block) {
        byNumber.set(question.number, column.blocks[b]!.slice(at, at + question.options.length))
        at += question.options.length
      }
    })
  }
  return { byNumber, bent, columns }
}

/** A block's rings as a control of the page model: only where they were plainly seen in a column found whole. */
function foundOffset(found: readonly SightedOption[], clear: boolean): Point | null {
  if (!clear || found.length === 0) return null
  const seen = found.filter((s) => s.contrast >= MIN_RING_CONTRAST && !s.glare).length
  if (seen < found.length * 0.75) return null
  const s = found[0]!
  return { x: s.at.x_mm - s.bubble.x_mm, y: s.at.y_mm - s.bubble.y_mm }
}

/** Of a page's blocks of rows, at least this share must be found around three markers for the rings to place it. */
const FOUND_SHARE = 0.75

/**
 * A page three markers placed (the fourth cut off by the frame), its transform taken again through the blocks of
 * rows found outwards from the markers (`place-by-rings.ts`), from the three's transform or else from two of them on
 * one edge: most of the page's blocks, or the page is refused, not guessed (issue 79). The rows are then found and
 * read as on any bent page, with its guards.
 */
function placeThroughRings(image: GreyImage, located: LocatedPage, layout: SheetLayout): LocatedPage | null {
  const blocks = questionRuns(layout).flatMap((run) => run.map((block) => block.flatMap((q) => q.options)))
  let toImage: Homography | null = null
  for (const seed of ringSeeds(located.toImage, located.controls, located.cornerControls)) {
    const grown = growRings(image, seed.toImage, seed.markers, blocks)
    if (grown.length < blocks.length * FOUND_SHARE) continue
    toImage = homographyThroughRings(seed.toImage, seed.markers, grown)
    if (toImage) break
  }
  if (!toImage) return null
  return {
    ...located,
    toImage,
    controls: controlsFrom(located.toImage, toImage, located.controls),
    cornerControls: controlsFrom(located.toImage, toImage, located.cornerControls),
  }
}

/** The page model through the markers and every block of questions, and each block read through it (115). */
export function fitQuestions(
  image: GreyImage,
  located: Pick<LocatedPage, 'toImage' | 'controls' | 'cornerControls' | 'reach'>,
  layout: SheetLayout,
) {
  const { columns } = sightQuestions(image, located.toImage, layout, located.reach)
  const toFit = columns.flatMap((column) =>
    column.blocks.map((block, b) => ({
      bubbles: block.flatMap((q) => q.options),
      found: foundOffset(column.found[b]!, column.clear),
    })),
  )
  // Blocks found plainly in columns found whole: what places a page three markers placed (`ringsPlacePage`).
  const foundWhole = toFit.filter((r) => r.found).length
  const fitted = { ...fitAndCheck(image, located, columns, toFit), foundWhole }
  // A bent page refused for columns not found whole: their blocks are grown from the rest, and checked again.
  if (!fitted.bent || located.reach <= FIRST_REACH_MM || columns.every((column) => column.clear)) return fitted
  const grown = growColumns(image, located, columns, toFit)
  if (!grown) return fitted
  const again = fitAndCheck(image, located, columns, grown)
  return again.bent ? fitted : { ...again, foundWhole }
}

type ColumnsSighted = ReturnType<typeof sightQuestions>['columns']
type BlockToFit = RegionToFit<SheetLayout['questions'][number]['options'][number]>

/**
 * The model through the markers and the blocks found, each block read through it, and whether a column's end rows,
 * where the model puts them, fail 074's guard: rings a row past them, or no end row seen plainly.
 */
function fitAndCheck(
  image: GreyImage,
  located: Pick<LocatedPage, 'toImage' | 'controls' | 'cornerControls'>,
  columns: ColumnsSighted,
  toFit: BlockToFit[],
) {
  const { model, regions, controls } = fitAndRead(
    image,
    located.toImage,
    [located.controls, located.cornerControls],
    toFit,
  )
  // A column whose end rows, where the model puts them, have rings a row past them was found a row over: not read.
  let at = 0
  let bent = false
  for (const column of columns) {
    const first = regions[at]!
    const last = regions[at + column.blocks.length - 1]!
    const offsetOf = (r: (typeof regions)[number]) => ({
      x: r.sighted[0]!.at.x_mm - r.sighted[0]!.bubble.x_mm,
      y: r.sighted[0]!.at.y_mm - r.sighted[0]!.bubble.y_mm,
    })
    const ends = [
      columnEnd(image, first.toImage, first.bubbles, offsetOf(first), -1),
      columnEnd(image, last.toImage, last.bubbles, offsetOf(last), 1),
    ]
    if (ends.includes('ringed') || !ends.includes('clear')) bent = true
    at += column.blocks.length
  }
  const blocks = columns.flatMap((column) => column.blocks)
  return { model, regions, blocks, bent, toFit, controls }
}

/** A block not found is looked for again, as the columns grow, only once the model has moved it this far (mm). */
const GROW_RETRY_MM = 0.3

/**
 * On a bent page, the blocks of the columns not found whole (a curl near their edge misplaces them past a column's
 * search) grown from the markers and the columns found, as a page three markers placed is (`place-by-rings.ts`):
 * each block only near what was found, within 2.3 mm of where the model through it puts it, nearly every ring seen.
 * The markers' corners are tried first (near a lifted edge they follow the page's own scale, which the centres do not
 * give), then, when they find under half the blocks, their centres; the way that finds more is taken. Null when
 * neither finds a block. The columns are then checked as any are: the model through them must put every column's
 * end rows where paper lies past them, and each region is flagged where the model misses it (issue 79).
 */
function growColumns(
  image: GreyImage,
  located: Pick<LocatedPage, 'toImage' | 'controls' | 'cornerControls'>,
  columns: ColumnsSighted,
  toFit: BlockToFit[],
): BlockToFit[] | null {
  const found = toFit.flatMap((r) => (r.found ? [{ page: centreOf(r.bubbles), offset: r.found, weight: 1 }] : []))
  const lost: number[] = []
  let at = 0
  for (const column of columns) {
    if (!column.clear) column.blocks.forEach((_, b) => lost.push(at + b))
    at += column.blocks.length
  }
  const grow = (markers: readonly ModelControl[]) =>
    growRings(
      image,
      located.toImage,
      [...markers, ...found],
      lost.map((i) => toFit[i]!.bubbles),
      GROW_RETRY_MM,
    )
  let grown = grow(located.cornerControls)
  if (grown.length * 2 < lost.length) {
    const byCentres = grow(located.controls)
    if (byCentres.length > grown.length) grown = byCentres
  }
  if (grown.length === 0) return null
  const out = toFit.map((r) => ({ ...r }))
  for (const g of grown) out[lost[g.block]!]!.found = g.offset
  return out
}

/** A grid column as read: its kind and the choice among its bubbles (by index in the column). */
export interface GridColumnRead {
  kind: NumericColumnKind
  choice: Choice<number>
}

const columnMarks = (column: GridColumnRead) =>
  column.choice.kind === 'one' ? [column.choice.value] : column.choice.kind === 'none' ? [] : column.choice.marks

/**
 * A grid's columns composed into a number, read like the roll number (decision 129): one bubble a column; blank
 * columns before and after the digits are left out, a blank one between them is a gap; the point marked between two
 * digit columns (or just outside the digits) is the number's point; the sign bubble makes it negative. A grid with
 * nothing marked is unanswered; a doubtful column, a gap, a sign or point without digits, or a number the number rule
 * refuses is `numeric_unclear`, with what was seen in reading order.
 */
export function composeNumber(columns: readonly GridColumnRead[]): NumericAnswer {
  const digits = columns.filter((c) => c.kind === 'digit')
  const sign = columns.find((c) => c.kind === 'sign')
  const point = columns.find((c) => c.kind === 'point')
  const points = point ? columnMarks(point) : []
  const seen: string[] = []
  if (sign && columnMarks(sign).length > 0) seen.push(MINUS_LABEL)
  digits.forEach((column, index) => {
    const marks = columnMarks(column)
    if (marks.length > 0) seen.push(marks.join('/'))
    if (points.includes(index)) seen.push('.')
  })
  const unclear = { flag: 'numeric_unclear' as const, marks: seen }
  if (columns.every((c) => c.choice.kind === 'none')) return null
  if (columns.some((c) => c.choice.kind === 'multiple' || c.choice.kind === 'unclear')) return unclear
  const values = digits.map((c) => (c.choice.kind === 'one' ? c.choice.value : null))
  const first = values.findIndex((v) => v !== null)
  const last = values.findLastIndex((v) => v !== null)
  if (first < 0 || values.slice(first, last + 1).includes(null)) return unclear
  const at = points[0] ?? null
  // The point's place k is after digit column k: it must touch the digits (".5" and "12." read; ". _ 5" does not).
  if (at !== null && (at < first - 1 || at > last)) return unclear
  const body =
    at === null
      ? values.slice(first, last + 1).join('')
      : `${values.slice(first, at + 1).join('')}.${values.slice(Math.max(first, at + 1), last + 1).join('')}`
  const read = readNumber(`${sign?.choice.kind === 'one' ? '-' : ''}${body}`)
  return read.ok ? read.text : unclear
}

/**
 * Each numeric grid read through the page model, column by column with the roll number's rules (decision 129). The
 * grids' rings are found near where the rows' model puts them, then join the model's fit (a grid is a large region,
 * where a lens or a curl bends the page more than between rows), and each grid is read through the model refitted.
 */
function readGrids(
  image: GreyImage,
  located: LocatedPage,
  fitted: Pick<ReturnType<typeof fitQuestions>, 'model' | 'toFit' | 'controls'>,
  layout: SheetLayout,
  questionRings: readonly SightedBubble<Bubble>[],
) {
  const grids = layout.numeric ?? []
  if (grids.length === 0) return []
  const bubbles = grids.map((grid) => grid.columns.flatMap((column) => column.bubbles))
  const first = readThroughModel(image, fitted.model, bubbles, false)
  const gridFits = first.map((region, g) => {
    const centre = rectCentre(region.rect)
    const at = modelOffset(fitted.model, centre.x, centre.y)
    const s = region.sighted[0]!
    const seen = region.sighted.filter((r) => r.contrast >= MIN_RING_CONTRAST && !r.glare).length
    const found =
      seen >= region.sighted.length * 0.75
        ? { x: at.x + s.at.x_mm - s.bubble.x_mm, y: at.y + s.at.y_mm - s.bubble.y_mm }
        : null
    return { bubbles: bubbles[g]!, found }
  })
  const model = fitModel(located.toImage, fitted.controls, [...fitted.toFit, ...gridFits])
  const regions = readThroughModel(image, model, bubbles)
  const typical = typicalContrast([...questionRings, ...regions.flatMap((r) => r.sighted)])
  return grids.map((grid, g) => {
    const region = regions[g]!
    let at = 0
    const columns = grid.columns.map((column): GridColumnRead => {
      const row = region.sighted.slice(at, at + column.bubbles.length)
      at += column.bubbles.length
      const choice = decideSighted(
        image,
        region.toImage,
        located.levels,
        row,
        (b) => column.bubbles.findIndex((c) => c.x_mm === b.x_mm && c.y_mm === b.y_mm),
        typical,
      )
      return { kind: column.kind, choice }
    })
    const read = composeNumber(columns)
    // A grid the model does not fit is flagged whatever its bubbles seem to say, as a row is (decision 115).
    const answer: NumericAnswer =
      region.residualMm > RESIDUAL_MM
        ? { flag: 'numeric_unclear', marks: read === null ? [] : typeof read === 'string' ? [read] : read.marks }
        : read
    return { number: grid.question, answer, box: photoBox(image, region.toImage, gridRect(grid)) }
  })
}

const rectCentre = (rect: { left: number; top: number; right: number; bottom: number }) => ({
  x: (rect.left + rect.right) / 2,
  y: (rect.top + rect.bottom) / 2,
})

/** On a page three markers placed, at most this share of its blocks may be off the model: the rings place it. */
const THREE_MARKERS_POOR_SHARE = 0.25

/**
 * Whether the rings place a page that three markers placed (the fourth cut off by the frame), once its rows are
 * found again: at least half its blocks' rings plainly seen in columns found whole, and three quarters of its regions
 * fitting the model (issue 79). Regions that fit poorly are still flagged one by one.
 */
function ringsPlacePage(fitted: ReturnType<typeof fitQuestions>): boolean {
  const poor = fitted.regions.filter((r) => r.residualMm > RESIDUAL_MM).length
  return fitted.foundWhole * 2 >= fitted.toFit.length && poor <= fitted.regions.length * THREE_MARKERS_POOR_SHARE
}

function readAnswers(image: GreyImage, located: LocatedPage, layout: SheetLayout) {
  const fitted = fitQuestions(image, located, layout)
  const { regions, blocks, bent } = fitted
  const unplaced = located.missing !== null && !ringsPlacePage(fitted)
  if (bent || unplaced) return { answers: [], numeric: [], glare: false, bent, unplaced }
  const typical = typicalContrast(regions.flatMap((r) => r.sighted))
  let glared = 0
  const answers: NonNullable<SheetReading['answers']> = []
  blocks.forEach((block, b) => {
    const region = regions[b]!
    const h = region.toImage
    // Rings unseen in half a block's rows, without glare: the block is not where its rings are (a slip that left
    // some of them on paper), and a row of it that seems clear is not trusted either (issue 79). A ring dark on
    // only a short arc is no ring: a block an option over puts its first on the question's number, which passes
    // the contrast but not the arc (curled sheets read a column's middle an option over without a flag).
    let at = 0
    const unseenRows = block.filter((question) => {
      const row = region.sighted.slice(at, (at += question.options.length))
      return row.some((s) => (s.contrast < MIN_RING_CONTRAST || s.arc < MIN_RING_ARC) && !s.glare)
    }).length
    const misplaced = unseenRows * 2 >= block.length
    at = 0
    for (const question of block) {
      const row = region.sighted.slice(at, at + question.options.length)
      at += question.options.length
      const box = photoBox(image, h, questionRect(question))
      if (row.some((s) => s.glare && isUnseen(s, typical))) glared++
      const choice = decideSighted(image, h, located.levels, row, (o) => o.label, typical)
      // A region the model does not fit is flagged whatever its bubbles seem to say (decision 115).
      const poorFit = region.residualMm > RESIDUAL_MM || misplaced
      const answer: SheetAnswer = poorFit
        ? {
            flag: 'unclear',
            marks: choice.kind === 'one' ? [choice.value] : choice.kind === 'none' ? [] : choice.marks,
          }
        : choice.kind === 'one'
          ? choice.value
          : choice.kind === 'none'
            ? null
            : choice.kind === 'multiple' && choice.doubtful
              ? { flag: choice.kind, marks: choice.marks, doubtful: choice.doubtful }
              : { flag: choice.kind, marks: choice.marks }
      answers.push({ number: question.number, answer, box })
    }
  })
  const order = new Map(layout.questions.map((q, i) => [q.number, i]))
  answers.sort((p, q) => order.get(p.number)! - order.get(q.number)!)
  const numeric = readGrids(
    image,
    located,
    fitted,
    layout,
    regions.flatMap((r) => r.sighted),
  )
  return { answers, numeric, glare: glared > layout.questions.length * GLARE_REFUSAL_SHARE, bent, unplaced }
}

interface MarkerPlacement {
  toImage: Homography
  /** Whether no one transform meets the markers' corners: the page model, not the transform, places the page. */
  bent: boolean
  corners: { page: Point; image: Point }[]
}

/** The page placed by the markers' edges, measured twice; `bent` when no one transform meets them: decision 115. */
function placeByMarkers(
  image: GreyImage,
  rough: Homography,
  blobs: readonly Blob[],
  missing: number | null = null,
): MarkerPlacement | null {
  const first = refineByMarkerEdges(image, rough, FIXED_PARTS, blobs, missing)
  if (!first) return null
  const second = refineByMarkerEdges(image, first.toImage, FIXED_PARTS, blobs, missing)
  const best = second && second.residualMm <= first.residualMm ? second : first
  if (best.residualMm > BENT_MM) return null
  // Three markers' affine transform does not know the page's perspective: the page is read as a bent one.
  const bent = missing !== null || best.residualMm > CORNER_TOLERANCE_MM
  return { toImage: best.toImage, bent, corners: best.corners }
}

/** The markers' corners as the page model's controls, for the page placed by `toImage`. */
function markerControls(toImage: Homography, corners: MarkerPlacement['corners']): ModelControl[] {
  const back = invertHomography(toImage)
  if (!back) return []
  return corners.map(({ page, image }) => {
    const seen = project(back, image.x, image.y)
    return { page, offset: { x: seen.x - page.x, y: seen.y - page.y }, weight: MARKER_WEIGHT }
  })
}

/**
 * Each marker as one control of the page model: where its corners put its centre, counting as many as its corners.
 * Its corners apart would teach the model the marker's own scale and turn, which a curl changes much near a lifted
 * marker (its corners 2 mm off the transform, 4.5 mm apart): a smooth surface carries that gradient across the page
 * and misplaces the rows in the middle by a column (decision 115).
 */
function markerCentres(corners: readonly ModelControl[]): ModelControl[] {
  return FIXED_PARTS.markers.flatMap((m) => {
    const own = corners.filter(
      (c) => Math.abs(c.page.x - m.x_mm) < m.size_mm && Math.abs(c.page.y - m.y_mm) < m.size_mm,
    )
    if (own.length === 0) return []
    const mean = (axis: 'x' | 'y') => own.reduce((sum, c) => sum + c.offset[axis], 0) / own.length
    return [
      { page: { x: m.x_mm, y: m.y_mm }, offset: { x: mean('x'), y: mean('y') }, weight: MARKER_WEIGHT * own.length },
    ]
  })
}

/** The QR code's region of the page: the model through the markers alone places it on a bent page. */
const QR_RECT = {
  left: FIXED_PARTS.qr.x_mm - FIXED_PARTS.qr.size_mm / 2 - 6,
  top: FIXED_PARTS.qr.y_mm - FIXED_PARTS.qr.size_mm / 2 - 6,
  right: FIXED_PARTS.qr.x_mm + FIXED_PARTS.qr.size_mm / 2 + 6,
  bottom: FIXED_PARTS.qr.y_mm + FIXED_PARTS.qr.size_mm / 2 + 6,
}

/** The transform the QR code is read through: the page's own, or on a bent page the markers' model's there. */
function qrPlacement(way: Homography, controls: ModelControl[], bent: boolean): Homography {
  if (!bent) return way
  const model = fitPageModel(way, controls, MARKER_STIFFNESS)
  return model ? regionHomography(model, QR_RECT) : way
}

/** Whether the QR code's finder patterns sit where the layout prints them (within `tolerance` mm), as placed. */
const findersAgree = (qr: SheetQr, tolerance = FINDER_TOLERANCE_MM) =>
  qr.finders.every((found, i) => {
    const expected = qr.expectedFinders[i]!
    return Math.hypot(found.x - expected.x, found.y - expected.y) <= tolerance
  })

export interface LocatedPage {
  toImage: Homography
  levels: PageLevels
  payload: string
  /** The markers, one control each at its centre, as the page model's first controls (decision 115). */
  controls: ModelControl[]
  /** The markers' corners each a control: the model they make follows a lens's scale near the markers. */
  cornerControls: ModelControl[]
  /** How far (mm) around where the markers put them the first blocks of bubbles are looked for: further when bent. */
  reach: number
  /** The marker cut off by the frame (the layout's index) when three placed the page; null when all four did. */
  missing: number | null
}

interface Placed {
  toImage: Homography
  payload: string
  controls: ModelControl[]
  corners: ModelControl[]
  bent: boolean
  rank: number
  missing: number | null
}

/** Four blobs that could be the markers, or three and a stand-in where the fourth would be (cut off by the frame). */
interface MarkerCandidate {
  quad: readonly Blob[]
  standIn: Blob | null
}

/**
 * The best placement of the page by candidate markers whose QR code decodes (decision 115), whether any candidate's
 * markers met a transform, and whether any was bent. A stand-in's marker is placed only on the page's bottom edge:
 * the QR code, the roll grid and the set row, read through the markers alone, lie between the two top ones.
 */
function placeByCandidates(image: GreyImage, candidates: readonly MarkerCandidate[]) {
  let markersFound: Homography | null = null
  let bent = false
  let placed: Placed | null = null
  search: for (const { quad, standIn } of candidates)
    for (const { rough, blobs } of roughPlacements(quad)) {
      const missing = standIn ? blobs.indexOf(standIn) : null
      const placement = placeByMarkers(image, rough, blobs, missing)
      if (!placement) continue
      if (placement.bent) bent = true
      markersFound ??= placement.toImage
      for (const [way, turned] of [
        [placement.toImage, false],
        [compose(placement.toImage, HALF_TURN), true],
      ] as const) {
        const missingHere = missing === null ? null : turned ? (missing + 2) % 4 : missing
        if (missingHere !== null && !BOTTOM_MARKERS.includes(missingHere)) continue
        // The corners' page points turn with the page: the transform's (x, y) is the turned page's (W - x, H - y).
        const corners = turned
          ? placement.corners.map(({ page, image: at }) => ({
              page: { x: FIXED_PARTS.page.width_mm - page.x, y: FIXED_PARTS.page.height_mm - page.y },
              image: at,
            }))
          : placement.corners
        const controls = markerControls(way, corners)
        const qr = decodeSheetQr(image, qrPlacement(way, controls, placement.bent), FIXED_PARTS)
        if (qr && findersAgree(qr, CURLED_FINDER_TOLERANCE_MM)) {
          // A flat placement whose finders agree closely wins; a square on the table beyond a corner can bend one.
          const loose = findersAgree(qr, BENT_FINDER_TOLERANCE_MM) ? 2 : 4
          const rank = (placement.bent ? 1 : 0) + (findersAgree(qr) ? 0 : loose)
          if (!placed || rank < placed.rank)
            placed = {
              toImage: way,
              payload: qr.payload,
              controls: markerCentres(controls),
              corners: controls,
              // Finders off where the markers put them: the middle of the page is off too, as on a bent page.
              bent: placement.bent || !findersAgree(qr),
              rank,
              missing: missingHere,
            }
          if (rank === 0) break search
          continue search
        }
        if (qr) bent = true
      }
      continue search
    }
  return { placed, markersFound, bent }
}

/** The bottom-right and bottom-left markers (the layout's order): the ones a stand-in may take the place of. */
const BOTTOM_MARKERS = [2, 3]

/** Where the page is and what its QR code says, or why not: decision 054 "In the code". */
export function locatePage(image: GreyImage): LocatedPage | SheetRefusal {
  const blobs = markerBlobs(image)
  const quads = findMarkerQuads(image, undefined, blobs)
  const byFour = placeByCandidates(
    image,
    quads.map((quad) => ({ quad, standIn: null })),
  )
  const { markersFound, bent } = byFour
  // No four blobs place the page: three markers may, the fourth cut off by the frame (issue 79). The refusal, if
  // they do not either, is the four's.
  const placed = byFour.placed ?? placeByCandidates(image, findMarkerTriples(blobs)).placed
  if (quads.length === 0 && !placed) return 'corners'

  const anyWay = placed?.toImage ?? markersFound ?? (quads[0] ? roughPlacements(quads[0])[0]?.rough : undefined)
  // Four solid squares that no one flat page fits: a curl, a fold near the corners, a wide-angle lens held close.
  if (!placed && !markersFound && bent) return 'not_flat'
  if (!anyWay || (!placed && !markersFound && !isPageInside(image, anyWay))) return 'corners'
  const levels = measurePageLevels(image, anyWay, FIXED_PARTS)
  if (levels.paper < 60 || levels.paper * (1 - levels.inkRatio) < 30) return 'dark'
  if (edgeSharpness(image, anyWay, FIXED_PARTS) < MIN_SHARPNESS) return 'blurred'
  // When no four blobs were the sheet's markers, one is missing (cut off, covered) and no stand-in fitted.
  if (!placed) return markersFound ? (bent ? 'not_flat' : 'qr') : 'corners'

  return {
    toImage: placed.toImage,
    levels,
    payload: placed.payload,
    controls: placed.controls,
    cornerControls: placed.corners,
    reach: placed.bent ? BENT_REACH_MM : FIRST_REACH_MM,
    missing: placed.missing,
  }
}

/** The photo in grey and its page located, or why not: what sheets and booklet pages share. */
export async function openPage(photo: Buffer): Promise<{ image: GreyImage; located: LocatedPage } | SheetRefusal> {
  if (!Buffer.isBuffer(photo) || photo.length === 0) return 'not_an_image'
  const image = await loadGrey(photo)
  if (typeof image === 'string') return image
  if (isTooDark(image)) return 'dark'
  const located = locatePage(image)
  if (typeof located === 'string') return located
  return { image, located }
}

/** The roll grid's bubbles, the same on answer sheets and booklet pages. */
export const ROLL_BUBBLES = FIXED_PARTS.roll.flatMap((column) => column.digits)

/**
 * Where a fixed block of the page (the roll grid, the set row) is, through the model of the markers alone: through
 * their centres (a curl's lifted marker is larger and turned, and its corners would bend the page wrongly) or
 * through their corners (a wide lens's scale near the markers, which the centres do not see) where a ring is not
 * seen through the centres' one, whichever shows the block's rings more plainly (decision 115).
 */
export function markerPlace<B extends Bubble>(
  image: GreyImage,
  located: LocatedPage,
  rect: PageRect,
  bubbles: readonly B[],
): MarkerPlace<B> {
  const place = (controls: readonly ModelControl[]) => {
    const toImage = regionHomography(fitModel(located.toImage, controls, []), rect)
    return { toImage, sighted: sightBlocks(image, toImage, [bubbles], located.reach)[0]! }
  }
  const centres = place(located.controls)
  // Every ring seen through the centres' model: the block is placed; the corners' model is tried only where not.
  if (centres.sighted.every((s) => s.contrast >= MIN_RING_CONTRAST)) return centres
  const corners = place(located.cornerControls)
  const plainness = (p: MarkerPlace<B>) => p.sighted.reduce((sum, s) => sum + s.contrast, 0)
  return plainness(corners) > plainness(centres) ? corners : centres
}

/** A fixed block placed through the markers' model, and its bubbles as found there. */
export interface MarkerPlace<B extends Bubble> {
  toImage: Homography
  sighted: SightedBubble<B>[]
}

/** An answer sheet's page, located and its code verified: its roll, set and rows, and where they are in the photo. */
export function readLocatedSheet(
  image: GreyImage,
  placed: LocatedPage,
  code: SheetCode,
  layoutFor: ReadSheetOptions['layoutFor'],
): SheetReadResult {
  let located = placed
  if (placed.missing !== null) {
    // Three markers placed the page: its rows' rings place it again before anything is read (issue 79).
    const set = readSet(image, markerPlace(image, placed, setRect(FIXED_PARTS), FIXED_PARTS.set), placed.levels)
    const rowsLayout = layoutFor(code, set === 'unclear' ? null : set)
    const again = rowsLayout && placeThroughRings(image, placed, rowsLayout)
    if (!again) return refuse('corners')
    located = again
  }
  const { toImage, levels } = located
  // The roll grid and the set row are read before the layout is known: through the model of the markers alone.
  const roll = readRoll(image, markerPlace(image, located, rollRect(FIXED_PARTS), ROLL_BUBBLES), levels)
  const set = readSet(image, markerPlace(image, located, setRect(FIXED_PARTS), FIXED_PARTS.set), levels)
  const layout = layoutFor(code, set === 'unclear' ? null : set)
  const read = layout ? readAnswers(image, located, layout) : null
  // Three markers placed the page: without the rows' rings to check the placement, it is not trusted.
  if (located.missing !== null && (!read || read.unplaced)) return refuse('corners')
  if (read?.bent) return refuse('not_flat')
  if (read?.glare) return refuse('glare')
  const answers = read?.answers ?? null
  const boxes = {
    roll: photoBox(image, toImage, rollRect(FIXED_PARTS)),
    set: photoBox(image, toImage, setRect(FIXED_PARTS)),
  }
  return { ok: true, code, roll, set, answers, numeric: read?.numeric ?? null, boxes }
}

/** Reads a photographed answer sheet; never throws on bad input: the steps are in decision 054 "In the code". */
export async function readSheet(photo: Buffer, options: ReadSheetOptions): Promise<SheetReadResult> {
  const opened = await openPage(photo)
  if (typeof opened === 'string') return refuse(opened)
  const verified = verifySheetCode(opened.located.payload, options.secret, options.sittingId)
  if (!verified.ok) return refuse('wrong_sitting')
  return readLocatedSheet(opened.image, opened.located, verified.code, options.layoutFor)
}
