import { isMainThread, workerData, threadId } from 'node:worker_threads'
import sharp from 'sharp'
import { readRasterHeader, type RasterHeader } from './raster-headers'

// Every raster decode of the process, in any thread, passes here: why and why these numbers, docs/decisions/060.

export const decodeLimits = {
  /** Decodes at once in the process: of libuv's pool (4 threads unless set), logins, files and zlib keep two. */
  atOnce: Math.max(1, Math.min(2, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 2)),
  /** Scans of one JPEG: a camera's progressive JPEG has about 10, each costs a pass over every block. */
  jpegScans: 64,
  /** One decode's wall time before libvips is asked to stop. */
  seconds: 10,
  /** What one decode may hold, estimated from its header (raster-headers.ts): more is refused, never waited for. */
  decodeMB: 320,
  /** What the decodes running at once may hold together: a decode waits until its estimate fits. */
  gateMB: 480,
}

export type DecodeRefusal = 'not_an_image' | 'too_many_pixels' | 'too_costly'
const REFUSALS: readonly unknown[] = ['not_an_image', 'too_many_pixels', 'too_costly'] satisfies DecodeRefusal[]
export const isDecodeRefusal = (value: unknown): value is DecodeRefusal => REFUSALS.includes(value)

export interface DecodeRules {
  maxPixels: number
  formats: readonly string[]
  /** sharp's `failOn`: 'error' unless a caller reads damaged photos on purpose. */
  failOn?: sharp.SharpOptions['failOn']
}

// Per slot: the decoding thread's id + 1 or 0; then releases, decodes passed, megabytes held, each slot's share.
const SLOTS = 16
const sharedSlots: SharedArrayBuffer =
  !isMainThread && (workerData as { decodeGate?: unknown } | null)?.decodeGate instanceof SharedArrayBuffer
    ? (workerData as { decodeGate: SharedArrayBuffer }).decodeGate
    : new SharedArrayBuffer((2 * SLOTS + 3) * 4)
const slots = new Int32Array(sharedSlots)
const RELEASES = SLOTS
const PASSES = SLOTS + 1
const RESERVED = SLOTS + 2
const SHARE = SLOTS + 3

export const decodeGateData = () => ({ decodeGate: sharedSlots })

/** A free slot, with `mb` of the gate's memory reserved in it, or -1 when no slot or not enough memory is free. */
function tryTake(limit: number, mb: number): number {
  for (;;) {
    const reserved = Atomics.load(slots, RESERVED)
    if (reserved + mb > decodeLimits.gateMB) return -1
    if (Atomics.compareExchange(slots, RESERVED, reserved, reserved + mb) === reserved) break
  }
  for (let i = 0; i < Math.min(limit, SLOTS); i++)
    if (Atomics.compareExchange(slots, i, 0, threadId + 1) === 0) {
      Atomics.store(slots, SHARE + i, mb)
      return i
    }
  Atomics.sub(slots, RESERVED, mb)
  return -1
}

function release(slot: number) {
  Atomics.sub(slots, RESERVED, Atomics.exchange(slots, SHARE + slot, 0))
  Atomics.store(slots, slot, 0)
  Atomics.add(slots, RELEASES, 1)
  Atomics.notify(slots, RELEASES)
}

export function releaseDecodeSlotsOf(thread: number) {
  for (let i = 0; i < SLOTS; i++) if (Atomics.load(slots, i) === thread + 1) release(i)
}

// In a thread, waiters are served in order: only the first in line contends for a slot with the other threads.
const line: { mb: number; start: (slot: number) => void; refuse: (reason: Error) => void }[] = []
const { waitAsync } = Atomics as unknown as {
  waitAsync: (array: Int32Array, index: number, value: number) => { async: boolean; value: Promise<string> | string }
}
let contending = false

async function serveLine() {
  contending = true
  while (line.length > 0) {
    const seen = Atomics.load(slots, RELEASES)
    const slot = tryTake(decodeLimits.atOnce, line[0]!.mb)
    if (slot >= 0) line.shift()!.start(slot)
    else {
      const wait = waitAsync(slots, RELEASES, seen)
      if (wait.async) await wait.value
    }
  }
  contending = false
}

/** Refuses this thread's decodes still waiting for a slot, so a stopping server need not wait for them. */
export function abandonDecodeLine(reason: Error) {
  for (const waiting of line.splice(0)) waiting.refuse(reason)
}

function take(mb: number): Promise<number> {
  return new Promise((resolve, reject) => {
    line.push({ mb, start: resolve, refuse: reject })
    if (!contending) void serveLine()
  })
}

export async function withDecodeSlot<T>(work: () => Promise<T>, mb = 0): Promise<T> {
  const slot = await take(Math.min(mb, decodeLimits.gateMB))
  try {
    return await work()
  } finally {
    release(slot)
  }
}

/** Decodes passed since the process started, in every thread: a photo's route checks it decodes no more than it must. */
export const decodePasses = () => Atomics.load(slots, PASSES)

export const decodeMemoryReserved = () => Atomics.load(slots, RESERVED)

export function decodesRunning(): number {
  let held = 0
  for (let i = 0; i < SLOTS; i++) if (Atomics.load(slots, i) !== 0) held++
  return held
}

/** A JPEG's scans (SOS segments), counted from its markers without decoding, up to `stopAfter`. */
export function countJpegScans(bytes: Uint8Array, stopAfter = Infinity): number {
  let scans = 0
  let at = 2
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) {
      // Entropy-coded data: the next marker is 0xFF not followed by 0x00 (a stuffed byte) or a restart marker.
      at = bytes.indexOf(0xff, at)
      if (at < 0) break
      continue
    }
    const marker = bytes[at + 1]!
    if (marker === 0xff) at += 1
    else if (marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) at += 2
    else if (marker === 0xd9) break
    else {
      if (marker === 0xda && ++scans > stopAfter) break
      if (at + 3 >= bytes.length) break
      at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!)
    }
  }
  return scans
}

/** Our own parser's verdict, with no library: magic bytes, canvas under `maxPixels`, JPEG scans, decode memory. */
export function checkRaster(bytes: Buffer, rules: DecodeRules): RasterHeader | DecodeRefusal {
  const header = readRasterHeader(bytes)
  if (!header || !rules.formats.includes(header.format)) return 'not_an_image'
  if (header.width * header.height > rules.maxPixels) return 'too_many_pixels'
  if (header.format === 'jpeg' && countJpegScans(bytes, decodeLimits.jpegScans) > decodeLimits.jpegScans)
    return 'too_costly'
  if (megabytes(header) > decodeLimits.decodeMB) return 'too_costly'
  return header
}

const megabytes = (header: RasterHeader) => Math.ceil(header.decodeBytes / (1024 * 1024))

async function metadataOf(bytes: Buffer, header: RasterHeader, rules: DecodeRules) {
  let metadata: sharp.Metadata
  try {
    // Only the header: sharp's own limit would call a declared 60,000 x 60,000 canvas unreadable, not too large.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch {
    return 'not_an_image'
  }
  if (metadata.format !== header.format || !metadata.width || !metadata.height) return 'not_an_image'
  if (metadata.width * metadata.height > rules.maxPixels) return 'too_many_pixels'
  return metadata
}

export async function inspectRaster(bytes: Buffer, rules: DecodeRules): Promise<sharp.Metadata | DecodeRefusal> {
  const header = checkRaster(bytes, rules)
  if (typeof header === 'string') return header
  return withDecodeSlot(() => metadataOf(bytes, header, rules))
}

const isTimeout = (error: unknown) => error instanceof Error && /timeout/i.test(error.message)

/** Decodes `bytes` through the gate (checked, in a slot, time- and size-capped): whatever sharp throws is a refusal. */
export async function decodeRaster<T>(
  bytes: Buffer,
  rules: DecodeRules,
  work: (image: sharp.Sharp, metadata: sharp.Metadata) => Promise<T>,
): Promise<T | DecodeRefusal> {
  const header = checkRaster(bytes, rules)
  if (typeof header === 'string') return header
  return withDecodeSlot(async () => {
    Atomics.add(slots, PASSES, 1)
    const metadata = await metadataOf(bytes, header, rules)
    if (typeof metadata === 'string') return metadata
    try {
      const image = sharp(bytes, { limitInputPixels: rules.maxPixels, failOn: rules.failOn ?? 'error' }).timeout({
        seconds: decodeLimits.seconds,
      })
      return await work(image, metadata)
    } catch (error) {
      return isTimeout(error) ? 'too_costly' : 'not_an_image'
    }
  }, megabytes(header))
}

/** Only our four formats' loaders, process-wide: a crafted file past the magic bytes still meets no SVG, PDF or HEIF loader. */
export function blockUntrustedLoaders() {
  sharp.block({ operation: ['VipsForeignLoad'] })
  sharp.unblock({
    operation: [
      'VipsForeignLoadJpegBuffer',
      'VipsForeignLoadPngBuffer',
      'VipsForeignLoadWebpBuffer',
      'VipsForeignLoadNsgifBuffer',
    ],
  })
}

export interface TurnOptions {
  owner?: unknown
  ownerLimit?: number
  signal?: AbortSignal
  weight?: number
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work
  work.catch(() => {})
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

/** Weighted work at most `capacity` at once, `waiting` in line, `perOwner` per owner; past either `refuse()` throws. */
export function createTurns(capacity: number, waiting: number, perOwner = Infinity) {
  let used = 0
  const line: { weight: number; start: () => void }[] = []
  const owners = new Map<unknown, number>()
  // A finishing piece hands its place straight to those next in line, before any newcomer can take it.
  const admit = () => {
    while (line.length > 0 && used + line[0]!.weight <= capacity) {
      const next = line.shift()!
      used += next.weight
      next.start()
    }
  }
  return async function turn<T>(
    work: () => Promise<T>,
    refuse: () => Error,
    { owner, ownerLimit = perOwner, signal, weight = 1 }: TurnOptions = {},
  ): Promise<T> {
    signal?.throwIfAborted()
    const share = Math.min(weight, capacity)
    const mine = owner === undefined ? 0 : (owners.get(owner) ?? 0)
    const now = line.length === 0 && used + share <= capacity
    if (mine >= ownerLimit || (!now && line.length >= waiting)) throw refuse()
    if (owner !== undefined) owners.set(owner, mine + 1)
    try {
      if (now) used += share
      else
        await new Promise<void>((resolve, reject) => {
          const entry = { weight: share, start: resolve }
          line.push(entry)
          signal?.addEventListener(
            'abort',
            () => {
              const at = line.indexOf(entry)
              if (at < 0) return
              line.splice(at, 1)
              admit()
              reject(signal.reason)
            },
            { once: true },
          )
        })
      try {
        return await untilAborted(Promise.resolve().then(work), signal)
      } finally {
        used -= share
        admit()
      }
    } finally {
      if (owner !== undefined) {
        const left = owners.get(owner)! - 1
        if (left > 0) owners.set(owner, left)
        else owners.delete(owner)
      }
    }
  }
}

export const uploadTurnLimits = {
  /** Declared body bytes read at once per process: 4 photos of 15 MB as before, or some 20 of a phone's 3 MB. */
  bytes: 64 * 1024 * 1024,
  waiting: 32,
  perUser: 2,
  /** An admin's: the "Scan sheets" screen sends 3 photos at once (web's UPLOAD_CONCURRENCY). */
  perAdmin: 4,
}

export const photoUploadTurn = createTurns(uploadTurnLimits.bytes, uploadTurnLimits.waiting, uploadTurnLimits.perUser)
