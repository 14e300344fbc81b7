import { Unzip, UnzipInflate, zipSync } from 'fflate'
import { importLimits } from '@quiz/contracts'
import { Unreadable } from './draft'

// A zip's sizes can lie and entries can overlap (the zip bomb): every entry is inflated here counting what comes out.

const CHUNK = 64 * 1024

/** Office's encrypted files (and the old .xls / .doc) are OLE compound files, not zips. */
export const isCompoundFile = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0xd0 && bytes[1] === 0xcf && bytes[2] === 0x11 && bytes[3] === 0xe0
export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04

export const messages = {
  notZip: (kind: string) => `This file is not ${kind}: it may be damaged, or another kind of file with its name.`,
  broken: (kind: string) => `This ${kind} is damaged and cannot be opened.`,
  compound:
    'This file is password-protected or in an old Office format (.xls / .doc); save a copy without a password as .xlsx or .docx and import that.',
  tooLarge: `This file unpacks to more than ${importLimits.unpackedBytes / 1024 / 1024} MB; split it or take the pictures out.`,
}

// Read first, so that a part declared over its cap is refused without work; a lie there is caught while inflating.
export function declaredSizes(bytes: Uint8Array): Map<string, number> {
  const sizes = new Map<string, number>()
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const last = bytes.length - 22
  let end = -1
  for (let at = last; at >= 0 && at >= last - 0xffff; at--)
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at
      break
    }
  if (end < 0) return sizes
  const count = view.getUint16(end + 10, true)
  let at = view.getUint32(end + 16, true)
  const decoder = new TextDecoder()
  for (let n = 0; n < count && at + 46 <= bytes.length; n++) {
    if (view.getUint32(at, true) !== 0x02014b50) break
    const size = view.getUint32(at + 24, true)
    const nameLength = view.getUint16(at + 28, true)
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength))
    // 0xffffffff: the size is in a Zip64 field; it is then only counted while inflating.
    if (size !== 0xffffffff) sizes.set(name, Math.max(size, sizes.get(name) ?? 0))
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true)
  }
  return sizes
}

export interface PartCap {
  bytes: number
  message: string
}

// `capOf`: a lower cap for the parts whose reader needs far more memory than their size (issue 41, L4).
export function unpackCounted(
  bytes: Uint8Array,
  kind: string,
  keep: (name: string) => boolean,
  limit: number = importLimits.unpackedBytes,
  capOf: (name: string) => PartCap | undefined = () => undefined,
): Map<string, Uint8Array> {
  if (isCompoundFile(bytes)) throw new Unreadable(messages.compound)
  if (!isZip(bytes)) throw new Unreadable(messages.notZip(kind))
  for (const [name, size] of declaredSizes(bytes)) {
    const cap = capOf(name)
    if (cap && size > cap.bytes) throw new Unreadable(cap.message)
  }
  const entries = new Map<string, Uint8Array>()
  let total = 0
  let failure: Error | null = null
  const unzip = new Unzip((file) => {
    if (file.compression !== 0 && file.compression !== 8) {
      failure = new Unreadable(messages.broken(kind))
      return
    }
    const parts: Uint8Array[] = []
    const wanted = keep(file.name)
    const cap = capOf(file.name)
    let own = 0
    file.ondata = (error, data, final) => {
      if (failure) return
      if (error) {
        failure = new Unreadable(messages.broken(kind))
        return
      }
      total += data.length
      own += data.length
      if (total > limit || (cap && own > cap.bytes)) {
        failure = new Unreadable(total > limit ? messages.tooLarge : cap!.message)
        file.terminate()
        return
      }
      if (wanted) parts.push(data)
      if (final && wanted) entries.set(file.name, concat(parts))
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  try {
    for (let at = 0; at < bytes.length && !failure; at += CHUNK) {
      unzip.push(bytes.subarray(at, Math.min(at + CHUNK, bytes.length)), at + CHUNK >= bytes.length)
    }
  } catch {
    failure ??= new Unreadable(messages.broken(kind))
  }
  if (failure) throw failure
  if (entries.size === 0) throw new Unreadable(messages.broken(kind))
  return entries
}

export function repack(entries: Map<string, Uint8Array>): Uint8Array {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {}
  for (const [name, data] of entries) files[name] = [data, { level: 0 }]
  return zipSync(files)
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!
  const length = parts.reduce((sum, part) => sum + part.length, 0)
  const out = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
