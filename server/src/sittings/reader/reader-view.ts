import { decodeRaster } from '../../lib/decode-gate'
import { bubbleFill } from './bubble-fill'
import { MIN_RING_CONTRAST, sightBlocks } from './bubble-sight'
import { project, type Homography } from './homography'
import { BLANK_FILL, MARK_FILL } from './mark-decisions'
import { readThroughModel, RESIDUAL_MM, type FittedRegion } from './fit-page'
import { modelPoint, type PageModel } from './page-model'
import { fitQuestions, loadGrey, locatePage, MAX_PHOTO_PIXELS, REFUSAL_MESSAGES, type SheetRefusal } from './read-sheet'
import { buildSheetLayout, type Bubble, type SheetLayout } from '../sheet/sheet-layout'

// What the reader saw, for support (docs/decisions/066): the page outline, the fitted page model as a bent grid,
// each region of questions with its residual (decision 115), and each bubble's place and fill.

const FIXED_PARTS = buildSheetLayout({ questionCount: 1, optionCounts: [2], labels: 'latin' })

/** Not seen (glare, a crease): magenta; a mark: green; between a mark and blank: orange; blank: blue. */
function colourOf(fill: number, seen: boolean): string {
  if (!seen) return '#e000e0'
  if (fill >= MARK_FILL) return '#00b000'
  if (fill >= BLANK_FILL) return '#ff8c00'
  return '#2060ff'
}

const at = (h: Homography, x: number, y: number) => {
  const p = project(h, x, y)
  return `${p.x.toFixed(1)},${p.y.toFixed(1)}`
}

function bubbleSvg(h: Homography, b: Bubble, fill: number, seen: boolean): string {
  const centre = project(h, b.x_mm, b.y_mm)
  const edge = project(h, b.x_mm + b.r_mm, b.y_mm)
  const r = Math.max(1.5, Math.hypot(edge.x - centre.x, edge.y - centre.y))
  const colour = colourOf(fill, seen)
  return (
    `<circle cx="${centre.x.toFixed(1)}" cy="${centre.y.toFixed(1)}" r="${r.toFixed(1)}" fill="${colour}" ` +
    `fill-opacity="${(0.15 + 0.5 * Math.min(1, fill)).toFixed(2)}" stroke="${colour}" stroke-width="1"/>`
  )
}

/** The fitted page model as a 10 mm grid, bent as the model bends the page (decision 115). */
function modelGridSvg(model: PageModel): string {
  const { width_mm: w, height_mm: hh } = FIXED_PARTS.page
  const line = (points: { x: number; y: number }[]) =>
    `<polyline points="${points
      .map((p) => {
        const q = modelPoint(model, p.x, p.y)
        return `${q.x.toFixed(1)},${q.y.toFixed(1)}`
      })
      .join(' ')}" fill="none" stroke="#00c8c8" stroke-width="0.8" stroke-opacity="0.7"/>`
  const lines: string[] = []
  for (let x = 0; x <= w; x += 10)
    lines.push(line(Array.from({ length: Math.ceil(hh / 5) + 1 }, (_, i) => ({ x, y: Math.min(hh, i * 5) }))))
  for (let y = 0; y <= hh; y += 10)
    lines.push(line(Array.from({ length: Math.ceil(w / 5) + 1 }, (_, i) => ({ x: Math.min(w, i * 5), y }))))
  return lines.join('')
}

/** A region's outline and its residual in mm: green within half the limit, orange under it, red over (flagged). */
function regionSvg(h: Homography, rect: FittedRegion<Bubble>['rect'], residualMm: number): string {
  const colour = residualMm > RESIDUAL_MM ? '#ff0000' : residualMm > RESIDUAL_MM / 2 ? '#ff8c00' : '#00b000'
  const { left, top, right, bottom } = rect
  const label = project(h, left, top - 0.5)
  return (
    `<polygon points="${[at(h, left, top), at(h, right, top), at(h, right, bottom), at(h, left, bottom)].join(' ')}" ` +
    `fill="none" stroke="${colour}" stroke-width="1.5"/>` +
    `<text x="${label.x.toFixed(1)}" y="${label.y.toFixed(1)}" font-size="11" fill="${colour}">` +
    `${residualMm.toFixed(2)} mm</text>`
  )
}

function overlaySvg(
  width: number,
  height: number,
  located: ReturnType<typeof locatePage>,
  layout: SheetLayout | null,
  image: Parameters<typeof sightBlocks>[0],
) {
  const parts: string[] = []
  if (typeof located === 'string') {
    const message = REFUSAL_MESSAGES[located].replace(/[<>&]/g, '')
    parts.push(`<rect width="${width}" height="40" fill="#000" fill-opacity="0.6"/>`)
    parts.push(`<text x="10" y="26" font-size="18" fill="#fff">${message}</text>`)
  } else {
    const h = located.toImage
    const { width_mm: w, height_mm: hh } = FIXED_PARTS.page
    parts.push(
      `<polygon points="${[at(h, 0, 0), at(h, w, 0), at(h, w, hh), at(h, 0, hh)].join(' ')}" fill="none" stroke="#ff0000" stroke-width="3"/>`,
    )
    const sighted = [
      ...sightBlocks(image, h, [FIXED_PARTS.roll.flatMap((c) => c.digits)], located.reach),
      ...sightBlocks(image, h, [FIXED_PARTS.set], located.reach),
    ]
    for (const row of sighted)
      for (const s of row)
        parts.push(bubbleSvg(h, s.at, bubbleFill(image, h, located.levels, s.at), s.contrast >= MIN_RING_CONTRAST))
    if (layout) {
      const { model, regions } = fitQuestions(image, located, layout)
      parts.push(modelGridSvg(model))
      // Numeric grids are read through the same model, each a region of its own (decision 129).
      const grids = readThroughModel(
        image,
        model,
        (layout.numeric ?? []).map((grid) => grid.columns.flatMap((column) => column.bubbles)),
      )
      for (const region of [...regions, ...grids]) {
        parts.push(regionSvg(region.toImage, region.rect, region.residualMm))
        for (const s of region.sighted)
          parts.push(
            bubbleSvg(
              region.toImage,
              s.at,
              bubbleFill(image, region.toImage, located.levels, s.at),
              s.contrast >= MIN_RING_CONTRAST,
            ),
          )
      }
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`
}

/** The reader's view of a photo as a JPEG, drawn at the size it is read. */
export async function drawReaderView(
  photo: Buffer,
  layout: SheetLayout | null,
): Promise<Buffer | SheetRefusal | 'too_costly'> {
  const image = await loadGrey(photo)
  if (typeof image === 'string') return image
  const svg = overlaySvg(image.width, image.height, locatePage(image), layout, image)
  const rules = { maxPixels: MAX_PHOTO_PIXELS, formats: ['jpeg', 'png', 'webp'], failOn: 'truncated' as const }
  const drawn = await decodeRaster(photo, rules, (decoded) =>
    decoded
      .rotate()
      .resize(image.width, image.height, { fit: 'fill' })
      .composite([{ input: Buffer.from(svg), left: 0, top: 0 }])
      .jpeg({ quality: 80 })
      .toBuffer(),
  )
  if (drawn === 'too_many_pixels') return 'too_large'
  return drawn
}
