import { timingSafeEqual } from 'node:crypto'
import { mac } from '../sheet/sheet-code'

/**
 * A written-answer booklet page's QR payload (API.md "Written answers marked by rubric", "On paper";
 * docs/decisions/075), signed as answer sheets' codes are (decision 061) and told apart from them by its letters:
 * - `QZ1:<sitting>:W<page>R<roll>U<learner>:<mac>`: page `page` of a roster learner's booklet;
 * - `QZ1:<sitting>:W<page>B<serial>:<mac>`: page `page` of a blank booklet (its first page has a roll grid);
 * - `QZ1:<sitting>:X<serial>:<mac>`: a spare page (a roll grid, no page number: it follows the learner's pages).
 * All QR alphanumeric: at most 46 characters for ids below a million and a hundred million learners, inside the
 * version 3 code at error correction Q the sheets print (47).
 */
export type BookletCode =
  | { sittingId: number; kind: 'roster'; page: number; rollNumber: number; userId: number }
  | { sittingId: number; kind: 'blank'; page: number; serial: number }
  | { sittingId: number; kind: 'spare'; serial: number }

export const MAX_BOOKLET_PAGES = 16
const MAX_ROLL = 999_999
const MAX_SERIAL = 999_999_999
const MAC_CHARS = 16
const PAYLOAD =
  /^QZ1:([1-9][0-9]{0,15}):(?:W([1-9][0-9]?)(?:R([1-9][0-9]{0,5})U([1-9][0-9]{0,15})|B([1-9][0-9]{0,8}))|X([1-9][0-9]{0,8})):([A-Z2-7]{16})$/

const inRange = (n: number, max: number) => Number.isSafeInteger(n) && n >= 1 && n <= max

function body(code: BookletCode): string {
  const page =
    code.kind === 'roster'
      ? `W${code.page}R${code.rollNumber}U${code.userId}`
      : code.kind === 'blank'
        ? `W${code.page}B${code.serial}`
        : `X${code.serial}`
  return `QZ1:${code.sittingId}:${page}`
}

export function signBookletCode(code: BookletCode, secret: string | Buffer): string {
  if (!inRange(code.sittingId, Number.MAX_SAFE_INTEGER)) throw new RangeError('A sitting id is a positive integer.')
  if (code.kind !== 'spare' && !inRange(code.page, MAX_BOOKLET_PAGES))
    throw new RangeError(`A booklet page is 1..${MAX_BOOKLET_PAGES}.`)
  if (code.kind === 'roster' && (!inRange(code.rollNumber, MAX_ROLL) || !inRange(code.userId, Number.MAX_SAFE_INTEGER)))
    throw new RangeError('A roll number is 1..999999 and a learner id a positive integer.')
  if (code.kind !== 'roster' && !inRange(code.serial, MAX_SERIAL)) throw new RangeError('A serial is 1..999999999.')
  const text = body(code)
  return `${text}:${mac(text, secret)}`
}

/** Whether a payload is shaped as a booklet page's code (signed or not): the scan route tells pages from sheets so. */
export const looksLikeBookletCode = (payload: string) => PAYLOAD.test(payload)

/**
 * Reads and checks a booklet page's payload for the sitting `sittingId`: `malformed` when it is not a booklet code,
 * `forged` when its mac does not verify, `foreign` when it is genuine but of another sitting.
 */
export function verifyBookletCode(
  payload: string,
  secret: string | Buffer,
  sittingId: number,
): { ok: true; code: BookletCode } | { ok: false; refusal: 'malformed' | 'forged' | 'foreign' } {
  const match = typeof payload === 'string' ? PAYLOAD.exec(payload) : null
  if (!match) return { ok: false, refusal: 'malformed' }
  const [, sitting, page, roll, learner, blankSerial, spareSerial, given] = match
  const id = Number(sitting)
  if (!inRange(id, Number.MAX_SAFE_INTEGER)) return { ok: false, refusal: 'malformed' }
  if (learner !== undefined && !inRange(Number(learner), Number.MAX_SAFE_INTEGER))
    return { ok: false, refusal: 'malformed' }
  if (page !== undefined && Number(page) > MAX_BOOKLET_PAGES) return { ok: false, refusal: 'malformed' }
  const expected = mac(payload.slice(0, payload.length - MAC_CHARS - 1), secret)
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(given!))) return { ok: false, refusal: 'forged' }
  if (id !== sittingId) return { ok: false, refusal: 'foreign' }
  const code: BookletCode =
    spareSerial !== undefined
      ? { sittingId: id, kind: 'spare', serial: Number(spareSerial) }
      : blankSerial !== undefined
        ? { sittingId: id, kind: 'blank', page: Number(page), serial: Number(blankSerial) }
        : { sittingId: id, kind: 'roster', page: Number(page), rollNumber: Number(roll), userId: Number(learner) }
  return { ok: true, code }
}

/** The printed page a code names, as a booklet page row keeps it (`sheet`). */
export const bookletSheetKey = (code: BookletCode) =>
  code.kind === 'roster'
    ? `W${code.page}R${code.rollNumber}U${code.userId}`
    : code.kind === 'blank'
      ? `W${code.page}B${code.serial}`
      : `X${code.serial}`
