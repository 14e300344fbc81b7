import sharp from 'sharp'
import { afterEach, describe, expect, it } from 'vitest'
import { progressiveJpegBomb, sixteenBitPng, svgBomb } from '../../test/fixtures/bomb-images'
import {
  checkRaster,
  countJpegScans,
  createTurns,
  decodeLimits,
  decodeRaster,
  decodeMemoryReserved,
  decodesRunning,
  inspectRaster,
  withDecodeSlot,
} from './decode-gate'
import { readRasterHeader } from './raster-headers'

const rules = { maxPixels: 50_000_000, formats: ['jpeg', 'png', 'webp', 'gif'] }
const flat = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#808080' } })

describe('the decode gate', () => {
  const seconds = decodeLimits.seconds
  afterEach(() => {
    decodeLimits.seconds = seconds
  })

  it("counts a JPEG's scans from its markers: a camera's few, a bomb's hundreds", async () => {
    expect(countJpegScans(await flat(64, 48).jpeg().toBuffer())).toBe(1)
    const progressive = countJpegScans(await flat(64, 48).jpeg({ progressive: true }).toBuffer())
    expect(progressive).toBeGreaterThan(1)
    expect(progressive).toBeLessThanOrEqual(decodeLimits.jpegScans)
    expect(countJpegScans(progressiveJpegBomb({ width: 64, height: 64, bits: 2 }))).toBe(1 + 3 * 63 * 2)
    expect(countJpegScans(progressiveJpegBomb({ width: 7000, height: 7000 }))).toBe(2647)
  })

  it('refuses a progressive JPEG of hundreds of scans before decoding it, though sharp would decode it', async () => {
    const bomb = progressiveJpegBomb({ width: 64, height: 64, bits: 2 })
    expect((await sharp(bomb, { failOn: 'error' }).stats()).channels[0]!.mean).toBe(128)
    expect(await inspectRaster(bomb, rules)).toBe('too_costly')
    let decoded = false
    const refused = await decodeRaster(bomb, rules, async (image) => {
      decoded = true
      return image.toBuffer()
    })
    expect(refused).toBe('too_costly')
    expect(decoded).toBe(false)
    expect(
      await decodeRaster(await flat(64, 48).jpeg({ progressive: true }).toBuffer(), rules, async () => 'read'),
    ).toBe('read')
  })

  it('refuses a canvas over the cap from its header, and what is not a picture, without throwing', async () => {
    expect(await inspectRaster(await sixteenBitPng(2000, 2000), { ...rules, maxPixels: 3_000_000 })).toBe(
      'too_many_pixels',
    )
    expect(await inspectRaster(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), rules)).toBe('not_an_image')
    const truncated = (await flat(300, 300).png().toBuffer()).subarray(0, 200)
    expect(await decodeRaster(truncated, rules, (image) => image.raw().toBuffer())).toBe('not_an_image')
  })

  it('never runs more than `atOnce` decodes at once in the process, and goes on after a refusal', async () => {
    const picture = await flat(64, 64).png().toBuffer()
    let most = 0
    const results = await Promise.all(
      Array.from({ length: 7 }, (_, n) =>
        decodeRaster(n === 3 ? Buffer.from('junk') : picture, rules, async (image) => {
          most = Math.max(most, decodesRunning())
          await new Promise((resolve) => setTimeout(resolve, 5))
          return (await image.raw().toBuffer()).length
        }),
      ),
    )
    expect(most).toBe(decodeLimits.atOnce)
    expect(results.filter((result) => result === 64 * 64 * 3)).toHaveLength(6)
    expect(results[3]).toBe('not_an_image')
    expect(decodesRunning()).toBe(0)
  })

  it('stops a decode past its time limit and refuses it', async () => {
    decodeLimits.seconds = 1
    const picture = await flat(3000, 3000).png().toBuffer()
    // A blur wide enough to take many seconds on any machine: sigma 80 finished within the second on a fast CPU.
    const slow = await decodeRaster(picture, rules, (image) => image.blur(400).raw().toBuffer())
    expect(slow).toBe('too_costly')
    expect(decodesRunning()).toBe(0)
  })

  it('refuses by its magic bytes what is no JPEG, PNG, WebP or GIF: an SVG bomb is never sized', async () => {
    // librsvg takes some 20 s to size it: before decision 088 sharp read its header, outside the gate.
    const started = performance.now()
    expect(await inspectRaster(svgBomb(6), rules)).toBe('not_an_image')
    expect(checkRaster(Buffer.from('%PDF-1.7\n'), rules)).toBe('not_an_image')
    expect(performance.now() - started).toBeLessThan(500)
    // A format the caller does not take is refused by its bytes too.
    expect(checkRaster(await flat(40, 30).gif().toBuffer(), { ...rules, formats: ['jpeg', 'png'] })).toBe(
      'not_an_image',
    )
  })

  it("reads each format's canvas as sharp does, and the memory its decode holds", async () => {
    for (const picture of [
      flat(401, 299).jpeg(),
      flat(401, 299).jpeg({ progressive: true }),
      flat(401, 299).png(),
      flat(401, 299).png({ progressive: true }),
      flat(401, 299).webp(),
      flat(401, 299).webp({ lossless: true }),
      flat(401, 299).gif(),
    ]) {
      const bytes = await picture.toBuffer()
      const ours = readRasterHeader(bytes)!
      const theirs = await sharp(bytes).metadata()
      expect([ours.format, ours.width, ours.height]).toEqual([theirs.format, 401, 299])
      expect(ours.decodeBytes).toBeLessThan(16 * 1024 * 1024)
    }
    // The 383 KB four-component progressive JPEG: every block's coefficients, about 400 MB.
    const bomb = progressiveJpegBomb({ width: 7000, height: 7000, components: 4, fewScans: true })
    expect(bomb.length).toBeLessThan(400_000)
    expect(readRasterHeader(bomb)!.decodeBytes / 1e6).toBeGreaterThan(400)
    expect(checkRaster(bomb, rules)).toBe('too_costly')
    // Three components of 7000 x 7000 at full resolution hold 300 MB: under one decode's budget.
    const three = progressiveJpegBomb({ width: 7000, height: 7000, components: 3, fewScans: true })
    expect(checkRaster(three, rules)).toMatchObject({ format: 'jpeg', width: 7000 })
  })

  it("never lets the decodes running at once hold more than the gate's memory", async () => {
    let most = 0
    let running = 0
    let together = 0
    const big = () =>
      withDecodeSlot(async () => {
        running++
        together = Math.max(together, running)
        most = Math.max(most, decodeMemoryReserved())
        await new Promise((resolve) => setTimeout(resolve, 20))
        running--
      }, 300)
    await Promise.all([big(), big(), big()])
    expect(together).toBe(1)
    expect(most).toBe(300)
    expect(decodeMemoryReserved()).toBe(0)
  })

  it('releases its slot when the work throws', async () => {
    await expect(withDecodeSlot(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken')
    expect(decodesRunning()).toBe(0)
  })
})

describe('createTurns', () => {
  it('runs at most `atOnce` in order, keeps at most `waiting` in line and refuses more', async () => {
    const turn = createTurns(2, 2)
    let running = 0
    let most = 0
    const order: number[] = []
    const gates: (() => void)[] = []
    const work = (n: number) => async () => {
      running++
      most = Math.max(most, running)
      await new Promise<void>((resolve) => gates.push(resolve))
      running--
      order.push(n)
      return n
    }
    const busy = () => new Error('busy')
    const started = [1, 2, 3, 4].map((n) => turn(work(n), busy))
    await expect(turn(work(5), busy)).rejects.toThrow('busy')
    while (order.length < 4) {
      await new Promise((resolve) => setImmediate(resolve))
      gates.shift()?.()
    }
    expect(await Promise.all(started)).toEqual([1, 2, 3, 4])
    expect(most).toBe(2)
    expect(order).toEqual([1, 2, 3, 4])
  })

  it("bounds one owner's pieces, weighs them, and gives a turn back when its signal aborts", async () => {
    const turn = createTurns(10, 5, 2)
    const busy = () => new Error('busy')
    let release!: () => void
    const held = new Promise<string>((resolve) => (release = () => resolve('done')))
    // One owner: two, then refused, whatever is free.
    const mine = [turn(() => held, busy, { owner: 'maya' }), turn(() => held, busy, { owner: 'maya' })]
    await expect(turn(() => held, busy, { owner: 'maya' })).rejects.toThrow('busy')
    // A piece of weight 8 waits for the 2 taken; one aborted in line leaves it, one aborted in its turn gives it back.
    const waiting = new AbortController()
    const inLine = turn(async () => 'never', busy, { weight: 8, signal: waiting.signal })
    waiting.abort(new Error('dropped'))
    await expect(inLine).rejects.toThrow('dropped')
    const running = new AbortController()
    const stuck = turn(() => new Promise<string>(() => {}), busy, { weight: 8, signal: running.signal })
    await new Promise((resolve) => setImmediate(resolve))
    running.abort(new Error('dropped'))
    await expect(stuck).rejects.toThrow('dropped')
    expect(await turn(async () => 'weighed', busy, { weight: 8 })).toBe('weighed')
    release()
    expect(await Promise.all(mine)).toEqual(['done', 'done'])
    expect(await turn(() => Promise.resolve('again'), busy, { owner: 'maya' })).toBe('again')
  })
})
