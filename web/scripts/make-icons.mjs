// Makes the web app's install icons from public/favicon.svg (run from web/: `node scripts/make-icons.mjs`; the
// PNGs it writes are committed, so a build needs neither this script nor sharp). Android crops a "maskable" icon
// to a circle or a squircle, keeping only the middle 80%: that one is the mark drawn smaller on a full-bleed field.
import { readFileSync } from 'node:fs'
import sharp from 'sharp'

const svg = readFileSync('public/favicon.svg')
// The favicon's own blue (its rect fill): the maskable icon's field and the manifest's theme colour.
const blue = '#1d4ed8'

for (const size of [192, 512]) {
  await sharp(svg, { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(`public/icons/icon-${size}.png`)
}

const size = 512
const inner = Math.round(size * 0.72)
const mark = await sharp(svg, { density: (72 * inner) / 32 })
  .resize(inner, inner)
  .png()
  .toBuffer()
await sharp({ create: { width: size, height: size, channels: 4, background: blue } })
  .composite([{ input: mark, gravity: 'center' }])
  .png({ compressionLevel: 9 })
  .toFile('public/icons/maskable-512.png')
console.log('wrote public/icons/icon-192.png, icon-512.png, maskable-512.png')
