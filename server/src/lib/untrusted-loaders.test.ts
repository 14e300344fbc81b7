import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
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
})
