import { createHmac, timingSafeEqual } from 'node:crypto'

/** The answer sheet's signed QR payload (API.md "Paper sittings"): docs/decisions/061 "In the code". */

export type SheetCode =
  | { sittingId: number; kind: 'roster'; rollNumber: number; userId: number | null }
  | { sittingId: number; kind: 'blank'; serial: number }

export type SheetCodeRefusal = 'malformed' | 'forged' | 'foreign'

const VERSION = 'QZ1'
const MAC_CHARS = 16
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
const PAYLOAD = /^QZ1:([1-9][0-9]{0,15}):([RB])([1-9][0-9]{0,8})(?:U([1-9][0-9]{0,15}))?:([A-Z2-7]{16})$/
const MAX_ID = Number.MAX_SAFE_INTEGER
const MAX_ROLL = 999_999
const MAX_SERIAL = 999_999_999

function base32(bytes: Buffer, chars: number): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5 && out.length < chars) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
    value &= (1 << bits) - 1
    if (out.length === chars) break
  }
  return out
}

function body(code: SheetCode): string {
  const learner = code.kind === 'roster' && code.userId !== null ? `U${code.userId}` : ''
  const sheet = code.kind === 'roster' ? `R${code.rollNumber}${learner}` : `B${code.serial}`
  return `${VERSION}:${code.sittingId}:${sheet}`
}

/** The code's signature over `text` (booklet pages' codes use it too: booklet/booklet-code.ts). */
export function mac(text: string, secret: string | Buffer): string {
  return base32(createHmac('sha256', secret).update(text).digest(), MAC_CHARS)
}

const isPositiveInteger = (n: number, max: number) => Number.isInteger(n) && n >= 1 && n <= max

export function signSheetCode(code: SheetCode, secret: string | Buffer): string {
  const number = code.kind === 'roster' ? code.rollNumber : code.serial
  if (!isPositiveInteger(code.sittingId, MAX_ID)) throw new RangeError('A sitting id is a positive integer.')
  const max = code.kind === 'roster' ? MAX_ROLL : MAX_SERIAL
  if (!isPositiveInteger(number, max))
    throw new RangeError(`A ${code.kind === 'roster' ? 'roll number' : 'serial'} is 1..${max}.`)
  if (code.kind === 'roster' && code.userId !== null && !isPositiveInteger(code.userId, MAX_ID))
    throw new RangeError('A learner id is a positive integer.')
  const text = body(code)
  return `${text}:${mac(text, secret)}`
}

/** Reads and checks a payload for the sitting: `forged` when its mac fails, `foreign` for another sitting's. */
export function verifySheetCode(
  payload: string,
  secret: string | Buffer,
  sittingId: number,
): { ok: true; code: SheetCode } | { ok: false; refusal: SheetCodeRefusal } {
  const match = typeof payload === 'string' ? PAYLOAD.exec(payload) : null
  if (!match) return { ok: false, refusal: 'malformed' }
  const [, sitting, kind, number, learner, given] = match
  const id = Number(sitting)
  const userId = learner === undefined ? null : Number(learner)
  if (!isPositiveInteger(id, MAX_ID) || (userId !== null && !isPositiveInteger(userId, MAX_ID)))
    return { ok: false, refusal: 'malformed' }
  if (kind === 'R' && Number(number) > MAX_ROLL) return { ok: false, refusal: 'malformed' }
  if (kind === 'B' && userId !== null) return { ok: false, refusal: 'malformed' }
  const expected = mac(payload.slice(0, payload.length - MAC_CHARS - 1), secret)
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(given))) return { ok: false, refusal: 'forged' }
  if (id !== sittingId) return { ok: false, refusal: 'foreign' }
  const code: SheetCode =
    kind === 'R'
      ? { sittingId: id, kind: 'roster', rollNumber: Number(number), userId }
      : { sittingId: id, kind: 'blank', serial: Number(number) }
  return { ok: true, code }
}
