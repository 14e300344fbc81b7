import { isMainThread, workerData, threadId } from 'node:worker_threads'
import sharp from 'sharp'

// Every raster decode of the process, in any thread, passes here: why and why these numbers, docs/decisions/060.

export const decodeLimits = {
  /** Decodes at once in the process: of libuv's pool (4 threads unless set), logins, files and zlib keep two. */
  atOnce: Math.max(1, Math.min(2, (Number(process.env.UV_THREADPOOL_SIZE) || 4) - 2)),
  /** Scans of one JPEG: a camera's progressive JPEG has about 10, each costs a pass over every block. */
  jpegScans: 64,
  /** One decode's wall time before libvips is asked to stop. */
  seconds: 10,
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

// Slot i holds the id + 1 of the thread decoding in it, or 0; then a count of releases, which waiters watch, and a
// count of the decodes that have passed the gate.
const SLOTS = 16
const sharedSlots: SharedArrayBuffer =
  !isMainThread && (workerData as { decodeGate?: unknown } | null)?.decodeGate instanceof SharedArrayBuffer
    ? (workerData as { decodeGate: SharedArrayBuffer }).decodeGate
    : new SharedArrayBuffer((SLOTS + 2) * 4)
const slots = new Int32Array(sharedSlots)
const RELEASES = SLOTS
const PASSES = SLOTS + 1

/** What a worker thread is started with (`workerData`), so that its decodes share this process's gate. */
export const decodeGateData = () => ({ decodeGate: sharedSlots })

function tryTake(limit: number): number {
  for (let i = 0; i < Math.min(limit, SLOTS); i++)
    if (Atomics.compareExchange(slots, i, 0, threadId + 1) === 0) return i
  return -1
}

function release(slot: number) {
  Atomics.store(slots, slot, 0)
  Atomics.add(slots, RELEASES, 1)
  Atomics.notify(slots, RELEASES)
}

/** A worker ended mid-decode (its pool's timeout) leaves its slots to whoever ended it. */
export function releaseDecodeSlotsOf(thread: number) {
  for (let i = 0; i < SLOTS; i++)
    if (Atomics.compareExchange(slots, i, thread + 1, 0) === thread + 1) {
      Atomics.add(slots, RELEASES, 1)
      Atomics.notify(slots, RELEASES)
    }
}

// In a thread, waiters are served in order: only the first in line contends for a slot with the other threads.
const line: ((slot: number) => void)[] = []
// In Node since 16; TypeScript's lib has it from es2024.
const { waitAsync } = Atomics as unknown as {
  waitAsync: (array: Int32Array, index: number, value: number) => { async: boolean; value: Promise<string> | string }
}
let contending = false

async function serveLine() {
  contending = true
  while (line.length > 0) {
    const seen = Atomics.load(slots, RELEASES)
    const slot = tryTake(decodeLimits.atOnce)
    if (slot >= 0) line.shift()!(slot)
    else {
      const wait = waitAsync(slots, RELEASES, seen)
      if (wait.async) await wait.value
    }
  }
  contending = false
}

function take(): Promise<number> {
  return new Promise((resolve) => {
    line.push(resolve)
    if (!contending) void serveLine()
  })
}

/** Runs `work` once one of the process's decode slots is free. */
export async function withDecodeSlot<T>(work: () => Promise<T>): Promise<T> {
  const slot = await take()
  try {
    return await work()
  } finally {
    release(slot)
  }
}

/**
 * How many decodes have passed the gate since the process started, in every thread of it: a photo's route is checked
 * against it to decode the photo no more often than it must (one read, one kept copy).
 */
export const decodePasses = () => Atomics.load(slots, PASSES)

/** How many decodes hold a slot now, in every thread of the process. */
export function decodesRunning(): number {
  let held = 0
  for (let i = 0; i < SLOTS; i++) if (Atomics.load(slots, i) !== 0) held++
  return held
}

/**
 * The scans (SOS segments) of a JPEG, counted by walking its markers: no pixel is decoded. Stops counting past
 * `stopAfter`.
 */
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

/**
 * The header of a raster the rules accept, or why not, before any decode: the format by content, the canvas under
 * `maxPixels`, a JPEG's scans under `decodeLimits.jpegScans`.
 */
export async function inspectRaster(bytes: Buffer, rules: DecodeRules): Promise<sharp.Metadata | DecodeRefusal> {
  let metadata: sharp.Metadata
  try {
    // Only the header: sharp's own limit would call a declared 60,000 x 60,000 canvas unreadable, not too large.
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata()
  } catch {
    return 'not_an_image'
  }
  if (!metadata.format || !rules.formats.includes(metadata.format)) return 'not_an_image'
  if (!metadata.width || !metadata.height) return 'not_an_image'
  if (metadata.width * metadata.height > rules.maxPixels) return 'too_many_pixels'
  if (metadata.format === 'jpeg' && countJpegScans(bytes, decodeLimits.jpegScans) > decodeLimits.jpegScans)
    return 'too_costly'
  return metadata
}

const isTimeout = (error: unknown) => error instanceof Error && /timeout/i.test(error.message)

/**
 * Decodes `bytes` through the gate: inspected first, then `work` builds and runs the pipeline it is given (its input
 * capped at `maxPixels`, stopped after `decodeLimits.seconds`) in one of the process's decode slots. Whatever the
 * file makes sharp throw is a refusal, never an exception.
 */
export async function decodeRaster<T>(
  bytes: Buffer,
  rules: DecodeRules,
  work: (image: sharp.Sharp, metadata: sharp.Metadata) => Promise<T>,
): Promise<T | DecodeRefusal> {
  const metadata = await inspectRaster(bytes, rules)
  if (typeof metadata === 'string') return metadata
  return withDecodeSlot(async () => {
    Atomics.add(slots, PASSES, 1)
    try {
      const image = sharp(bytes, { limitInputPixels: rules.maxPixels, failOn: rules.failOn ?? 'error' }).timeout({
        seconds: decodeLimits.seconds,
      })
      return await work(image, metadata)
    } catch (error) {
      return isTimeout(error) ? 'too_costly' : 'not_an_image'
    }
  })
}

/**
 * At most `atOnce` pieces of work at once in this process, in order, and at most `waiting` in line: past that
 * `refuse()` is thrown. A photo upload takes its turn before its body is read, so only `atOnce` bodies are held.
 */
export function createTurns(atOnce: number, waiting: number) {
  let running = 0
  const line: (() => void)[] = []
  return async function turn<T>(work: () => Promise<T>, refuse: () => Error): Promise<T> {
    if (running < atOnce) running++
    else if (line.length >= waiting) throw refuse()
    // A finishing piece hands its place straight to the next in line, so `running` never drops and climbs again.
    else await new Promise<void>((resolve) => line.push(resolve))
    try {
      return await work()
    } finally {
      const next = line.shift()
      if (next) next()
      else running--
    }
  }
}

/** Photo uploads of every route (scans, and written answers' pages to come): 4 bodies of 15 MB at most at once. */
export const photoUploadTurn = createTurns(4, 32)
