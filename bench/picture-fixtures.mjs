// A scanned diagram as an archive holds one: a drawing with labels and lines of handwriting-like strokes, scanned as
// a 2,000 px JPEG of about 1 MB, with paper grain and a slightly warm tint. Seeded, so each seed is one picture.
import sharp from 'sharp'
import { seededRandom } from './lib.mjs'

/** Strokes shaped like a handwritten or typed word, `width` px long, at (x, y). */
function word(next, x, y, width, size) {
  let d = `M${x} ${y}`
  for (let at = x; at < x + width; at += size * (0.3 + next() * 0.4)) {
    d += ` L${at.toFixed(1)} ${(y - size * next()).toFixed(1)} L${(at + size * 0.2).toFixed(1)} ${y}`
  }
  return d
}

function diagramSvg(seed, width, height) {
  const next = seededRandom(seed)
  const parts = []
  // A figure in the upper part: axes, a curve, shapes and arrows.
  parts.push(`<path d="M120 900 L120 120 M120 900 L1300 900" stroke="#222" stroke-width="5" fill="none"/>`)
  let curve = 'M120 860'
  for (let x = 140; x <= 1280; x += 20)
    curve += ` L${x} ${(860 - 600 * Math.sin((x - 120) / (380 + next() * 60)) ** 2).toFixed(1)}`
  parts.push(`<path d="${curve}" stroke="#1a1a6a" stroke-width="4" fill="none"/>`)
  for (let i = 0; i < 12; i++) {
    const cx = 1400 + next() * 500
    const cy = 150 + next() * 700
    const r = 20 + next() * 90
    parts.push(
      i % 2
        ? `<circle cx="${cx}" cy="${cy}" r="${r}" stroke="#333" stroke-width="3" fill="none"/>`
        : `<rect x="${cx - r}" y="${cy - r / 2}" width="${2 * r}" height="${r}" stroke="#333" stroke-width="3" fill="none"/>`,
    )
    parts.push(`<path d="${word(next, cx - r, cy + r + 30, 2 * r, 22)}" stroke="#111" stroke-width="2.5" fill="none"/>`)
  }
  for (let i = 0; i < 16; i++) {
    const x = 140 + next() * 1100
    const y = 150 + next() * 700
    parts.push(`<path d="M${x} ${y} l${60 + next() * 120} ${-40 + next() * 80}" stroke="#444" stroke-width="2"/>`)
    parts.push(`<path d="${word(next, x, y - 12, 80 + next() * 120, 20)}" stroke="#111" stroke-width="2" fill="none"/>`)
  }
  // Lines of text below the figure.
  for (let y = 1000; y < height - 60; y += 46) {
    let x = 100
    while (x < width - 200) {
      const w = 40 + next() * 160
      parts.push(`<path d="${word(next, x, y, w, 24)}" stroke="#151515" stroke-width="2.2" fill="none"/>`)
      x += w + 24
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${parts.join('')}</svg>`
}

/**
 * The JPEG of scanned diagram `seed`: `width` x `height`, at `quality`, or at the quality that makes it weigh about
 * `targetBytes` when none is given. Resolves to {jpeg, quality}.
 */
export async function scannedDiagram(
  seed,
  { width = 2000, height = 1500, targetBytes = 1024 * 1024, quality: fixedQuality } = {},
) {
  const drawing = await sharp(Buffer.from(diagramSvg(seed, width, height)))
    .flatten({ background: '#ffffff' })
    .blur(0.6)
    .png()
    .toBuffer()
  const paper = await sharp({
    create: { width, height, channels: 3, noise: { type: 'gaussian', mean: 232, sigma: 14 } },
  })
    .tint({ r: 250, g: 240, b: 220 })
    .png()
    .toBuffer()
  const scan = await sharp(paper)
    .composite([{ input: drawing, blend: 'multiply' }])
    .png()
    .toBuffer()
  if (fixedQuality !== undefined)
    return { jpeg: await sharp(scan).jpeg({ quality: fixedQuality }).toBuffer(), quality: fixedQuality }
  let best
  for (let quality = 60; quality <= 98; quality += 2) {
    const jpeg = await sharp(scan).jpeg({ quality }).toBuffer()
    if (!best || Math.abs(jpeg.length - targetBytes) < Math.abs(best.jpeg.length - targetBytes))
      best = { jpeg, quality }
    if (jpeg.length > targetBytes) break
  }
  return best
}
