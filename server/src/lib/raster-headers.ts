// A raster's kind, canvas and decoding memory, read by our own code before any library: docs/decisions/088.

export type RasterFormat = 'jpeg' | 'png' | 'webp' | 'gif'

export interface RasterHeader {
  format: RasterFormat
  width: number
  height: number
  decodeBytes: number
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** The format by magic bytes only: an SVG, PDF, HEIF or anything else is none. */
export function sniffFormat(bytes: Uint8Array): RasterFormat | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length > 8 && b.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png'
  if (b.length > 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp'
  if (b.length > 10 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'gif'
  return null
}

// A streamed decode holds rows, not the image: a floor that covers libvips' strips and the library's state.
const STREAMED = 8 * 1024 * 1024

const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf])
const PROGRESSIVE = new Set([0xc2, 0xc6, 0xca, 0xce])

function jpegHeader(b: Buffer): RasterHeader | null {
  let at = 2
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null
    const marker = b[at + 1]!
    if (marker === 0xff) {
      at += 1
      continue
    }
    const length = b.readUInt16BE(at + 2)
    if (SOF.has(marker)) {
      const height = b.readUInt16BE(at + 5)
      const width = b.readUInt16BE(at + 7)
      const count = b[at + 9]!
      if (at + 10 + count * 3 > b.length || count === 0) return null
      const factors = Array.from({ length: count }, (_, i) => b[at + 11 + i * 3]!)
      const hMax = Math.max(...factors.map((f) => f >> 4), 1)
      const vMax = Math.max(...factors.map((f) => f & 15), 1)
      let decodeBytes = STREAMED
      // Progressive: 64 coefficients of 2 bytes a block per component; a camera's 4:2:0 costs 3 bytes a pixel.
      if (PROGRESSIVE.has(marker))
        decodeBytes += factors.reduce((sum, f) => {
          const blocksWide = Math.ceil(Math.ceil((width * (f >> 4)) / hMax) / 8)
          const blocksHigh = Math.ceil(Math.ceil((height * (f & 15)) / vMax) / 8)
          return sum + blocksWide * blocksHigh * 128
        }, 0)
      return { format: 'jpeg', width, height, decodeBytes }
    }
    if (marker === 0xda || marker === 0xd9) return null
    at += 2 + length
  }
  return null
}

const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 4, 4: 2, 6: 4 }

function pngHeader(b: Buffer): RasterHeader | null {
  if (b.length < 33 || b.toString('latin1', 12, 16) !== 'IHDR') return null
  const width = b.readUInt32BE(16)
  const height = b.readUInt32BE(20)
  const channels = PNG_CHANNELS[b[25]!]
  if (channels === undefined) return null
  // An interlaced (Adam7) PNG cannot be streamed by rows: the whole image is held.
  const whole = b[28] === 1 ? width * height * channels * (b[24] === 16 ? 2 : 1) : 0
  return { format: 'png', width, height, decodeBytes: STREAMED + whole }
}

function webpHeader(b: Buffer): RasterHeader | null {
  if (b.length < 30) return null
  const chunk = b.toString('latin1', 12, 16)
  let width: number
  let height: number
  if (chunk === 'VP8 ') {
    width = b.readUInt16LE(26) & 0x3fff
    height = b.readUInt16LE(28) & 0x3fff
  } else if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21)
    width = (bits & 0x3fff) + 1
    height = ((bits >> 14) & 0x3fff) + 1
  } else if (chunk === 'VP8X') {
    width = b.readUIntLE(24, 3) + 1
    height = b.readUIntLE(27, 3) + 1
  } else return null
  // libwebp decodes the whole frame, 4 bytes a pixel.
  return { format: 'webp', width, height, decodeBytes: STREAMED + width * height * 4 }
}

function gifHeader(b: Buffer): RasterHeader {
  const width = b.readUInt16LE(6)
  const height = b.readUInt16LE(8)
  // The first frame is drawn on a canvas of the logical screen, 4 bytes a pixel.
  return { format: 'gif', width, height, decodeBytes: STREAMED + width * height * 4 }
}

/** The header our own parser reads, or null: not one of the four formats, or too damaged to name its canvas. */
export function readRasterHeader(bytes: Buffer): RasterHeader | null {
  const format = sniffFormat(bytes)
  const header =
    format === 'jpeg'
      ? jpegHeader(bytes)
      : format === 'png'
        ? pngHeader(bytes)
        : format === 'webp'
          ? webpHeader(bytes)
          : format === 'gif'
            ? gifHeader(bytes)
            : null
  return header && header.width > 0 && header.height > 0 ? header : null
}
