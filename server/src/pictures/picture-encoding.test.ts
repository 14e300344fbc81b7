import { pictureLimits } from '@quiz/contracts'
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import {
  animatedGif,
  dataUrl,
  hugeCanvasPng,
  jpegWithGps,
  noisyJpeg,
  png,
  pngDeclaring,
} from '../../test/fixtures/pictures'
import { progressiveJpegBomb } from '../../test/fixtures/bomb-images'
import { decodeDataUrl, encodePicture, type EncodedPicture } from './picture-encoding'

async function encoded(bytes: Buffer): Promise<EncodedPicture> {
  const result = await encodePicture(bytes)
  if (typeof result === 'string') throw new Error(`refused: ${result}`)
  return result
}

describe('encodePicture', () => {
  it('stores WebP named by the SHA-256 of its bytes', async () => {
    const picture = await encoded(await png(40, 30))
    expect((await sharp(picture.data).metadata()).format).toBe('webp')
    expect(picture.hash).toMatch(/^[0-9a-f]{64}$/)
    const again = await encoded(await png(40, 30))
    expect(again.hash).toBe(picture.hash)
    expect((await encoded(await png(40, 30, { colour: '#1e3cc8' }))).hash).not.toBe(picture.hash)
  })

  it('shrinks a picture to 1,600 px on its long side and leaves a smaller one its size', async () => {
    const wide = await encoded(await png(2000, 500))
    expect([wide.width, wide.height]).toEqual([1600, 400])
    expect(await sharp(wide.data).metadata()).toMatchObject({ width: 1600, height: 400 })
    const tall = await encoded(await png(300, 2400))
    expect([tall.width, tall.height]).toEqual([200, 1600])
    const small = await encoded(await png(640, 480))
    expect([small.width, small.height]).toEqual([640, 480])
  })

  it('strips EXIF, GPS included', async () => {
    const input = await jpegWithGps(60, 40)
    expect((await sharp(input).metadata()).exif).toBeDefined()
    const output = await sharp((await encoded(input)).data).metadata()
    expect(output).toMatchObject({ format: 'webp', width: 60, height: 40 })
    expect(output.exif).toBeUndefined()
    expect(output.xmp).toBeUndefined()
    expect(output.icc).toBeUndefined()
  })

  it('keeps transparency', async () => {
    const picture = await encoded(await png(20, 20, { alpha: 0.25 }))
    const { data, info } = await sharp(picture.data).raw().toBuffer({ resolveWithObject: true })
    expect(info.channels).toBe(4)
    expect(data[3]).toBeGreaterThan(40)
    expect(data[3]).toBeLessThan(90)
  })

  it('gives an animated GIF its first frame, not animated', async () => {
    const gif = await animatedGif(30, 20)
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(2)
    const picture = await encoded(gif)
    expect([picture.width, picture.height]).toEqual([30, 20])
    expect((await sharp(picture.data).metadata()).pages).toBeUndefined()
    const [r, g, b] = await sharp(picture.data).raw().toBuffer()
    // Red, as the first frame; the second is blue.
    expect(r).toBeGreaterThan(150)
    expect(b).toBeLessThan(100)
    expect(g).toBeLessThan(100)
  })

  it('refuses what is not a picture, or a picture cut short', async () => {
    expect(await encodePicture(Buffer.from('Not a picture at all, only text.'))).toBe('not_a_picture')
    expect(await encodePicture(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('not_a_picture')
    const jpeg = await noisyJpeg(200, 150)
    expect(await encodePicture(jpeg.subarray(0, jpeg.length >> 1))).toBe('not_a_picture')
  })

  it('refuses a canvas over 50 megapixels from its header, however small the file', async () => {
    const bomb = hugeCanvasPng(10_000, 10_000)
    expect(bomb.length).toBeLessThan(100_000)
    expect(await encodePicture(bomb)).toBe('too_many_pixels')
    expect(await encodePicture(hugeCanvasPng(10_000, 6_000))).toBe('too_many_pixels')
    expect(await encodePicture(await pngDeclaring(60_000, 60_000))).toBe('too_many_pixels')
    // Under the limit but its data does not fill the canvas it declares: unreadable, not a 500.
    expect(await encodePicture(await pngDeclaring(5_000, 5_000))).toBe('not_a_picture')
  })

  // As a question's picture and as an imported one (imports/rows.ts): the decode gate's scan limit.
  it('refuses a progressive JPEG of hundreds of scans as too costly to decode', async () => {
    expect(await encodePicture(progressiveJpegBomb({ width: 64, height: 64, bits: 2 }))).toBe('too_costly')
  })

  it('refuses more than 5 MB', async () => {
    expect(await encodePicture(Buffer.alloc(pictureLimits.bytes + 1))).toBe('too_large')
  })
})

describe('decodeDataUrl', () => {
  it('reads the base64 of a data URL, whatever type it declares', () => {
    const bytes = Buffer.from([1, 2, 3, 250])
    expect(decodeDataUrl(dataUrl(bytes))).toEqual(bytes)
    expect(decodeDataUrl(dataUrl(bytes, 'text/plain'))).toEqual(bytes)
    expect(decodeDataUrl(`data:;base64,${bytes.toString('base64')}`)).toEqual(bytes)
  })

  it('refuses malformed base64 and URLs that are not base64 data URLs', () => {
    expect(decodeDataUrl('data:image/png;base64,@@not*base64@@')).toBe('not_a_picture')
    expect(decodeDataUrl('data:image/png,rawtext')).toBe('not_a_picture')
    expect(decodeDataUrl('https://example.org/a.png')).toBe('not_a_picture')
  })

  it('refuses over 5 MB decoded before decoding it', () => {
    expect(decodeDataUrl(dataUrl(Buffer.alloc(pictureLimits.bytes + 3)))).toBe('too_large')
    const limit = decodeDataUrl(dataUrl(Buffer.alloc(pictureLimits.bytes, 7)))
    expect(Buffer.isBuffer(limit) && limit.equals(Buffer.alloc(pictureLimits.bytes, 7))).toBe(true)
  })

  it('reads base64 broken over lines, and refuses a long run of spaces ending badly without stalling', () => {
    const bytes = Buffer.from('a picture, as some tools wrap it')
    const wrapped = bytes.toString('base64').replace(/(.{8})/g, '$1\r\n')
    expect(decodeDataUrl(`data:image/png;base64,${wrapped}`)).toEqual(bytes)
    expect(decodeDataUrl(`data:image/png;base64,AA${' '.repeat(3_000_000)}@`)).toBe('not_a_picture')
  })
})
