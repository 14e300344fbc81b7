import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { answerPageImage } from '../sittings/booklet-page-image'
import { keptPage } from '../written/answer-pages'
import { blockUntrustedLoaders } from './decode-gate'

// Process-wide (libvips is shared by every thread), so in a file of its own: the server's entry calls it at start.

describe('blockUntrustedLoaders', () => {
  it('leaves libvips only the loaders of JPEG, PNG, WebP and GIF from memory', async () => {
    const flat = () => sharp({ create: { width: 20, height: 10, channels: 3, background: '#808080' } })
    const pictures = [
      await flat().jpeg().toBuffer(),
      await flat().png().toBuffer(),
      await flat().webp().toBuffer(),
      await flat().gif().toBuffer(),
    ]
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')
    expect((await sharp(svg).metadata()).format).toBe('svg')
    blockUntrustedLoaders()
    await expect(sharp(svg).metadata()).rejects.toThrow(/unsupported image format/)
    for (const picture of pictures) {
      const { info } = await sharp(picture).raw().toBuffer({ resolveWithObject: true })
      expect([info.width, info.height]).toEqual([20, 10])
    }
  })

  it('cuts a booklet page for markers with the SVG loader blocked, as the server runs (its mask was an SVG)', async () => {
    blockUntrustedLoaders()
    const photo = await sharp({ create: { width: 300, height: 400, channels: 3, background: '#404040' } })
      .jpeg()
      .toBuffer()
    const kept = await keptPage(photo)
    const corners = [
      { x: 0.1, y: 0.4 },
      { x: 0.9, y: 0.42 },
      { x: 0.9, y: 0.95 },
      { x: 0.1, y: 0.93 },
    ]
    const cut = await answerPageImage(kept, { corners, turn: 0 })
    expect(cut.width).toBeGreaterThan(200)
    const { data, info } = await sharp(cut.data).greyscale().raw().toBuffer({ resolveWithObject: true })
    // Inside the region the page shows; outside it (the top right corner, above the tilted edge) is painted white.
    expect(data[Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)]).toBeLessThan(100)
    expect(data[info.width - 1]).toBeGreaterThan(200)
  })
})
