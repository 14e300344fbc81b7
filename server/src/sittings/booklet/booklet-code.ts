import { timingSafeEqual } from 'node:crypto'
import { mac } from '../sheet/sheet-code'

/** A booklet page's signed QR payload, told apart from a sheet's by its letters: docs/decisions/075 "In the code". */
/** Whose a roster page is, as its code says it: a keyed tag of the learner, or (printed before 089) their id. */
export type RosterLearner = { tag: string } | { userId: number }

export type BookletCode =
  | { sittingId: number; kind: 'roster'; page: number; rollNumber: number; learner: RosterLearner }
  | { sittingId: number; kind: 'blank'; page: number; serial: number }
  | { sittingId: number; kind: 'spare'; serial: number }

/** What a page is printed for: a roster page names its learner by id here, and its code by tag. */
export type PrintedBooklet =
  | { sittingId: number; kind: 'roster'; page: number; rollNumber: number; userId: number }
  | Exclude<BookletCode, { kind: 'roster' }>

export const MAX_BOOKLET_PAGES = 16
const MAX_ROLL = 999_999
const MAX_SERIAL = 999_999_999
const MAC_CHARS = 16
const TAG_CHARS = 6
const PAYLOAD =
  /^QZ1:([1-9][0-9]{0,15}):(?:W([1-9][0-9]?)(?:R([1-9][0-9]{0,5})(?:U([1-9][0-9]{0,15})|K([A-Z2-7]{6}))|B([1-9][0-9]{0,8}))|X([1-9][0-9]{0,8})):([A-Z2-7]{16})$/

const inRange = (n: number, max: number) => Number.isSafeInteger(n) && n >= 1 && n <= max

/** The learner's tag on a roster page, 30 bits of an HMAC: names nobody without the secret (decision 089). */
export const learnerTag = (secret: string | Buffer, sittingId: number, rollNumber: number, userId: number) =>
  mac(`QZ1L:${sittingId}:${rollNumber}:${userId}`, secret).slice(0, TAG_CHARS)

/** Whether a roster page's code was printed for the learner `userId`. */
export function isPrintedFor(code: Extract<BookletCode, { kind: 'roster' }>, userId: number, secret: string | Buffer) {
  return 'userId' in code.learner
    ? code.learner.userId === userId
    : code.learner.tag === learnerTag(secret, code.sittingId, code.rollNumber, userId)
}

/** The page a printed code names, as the reader reads it back. */
export function readBack(code: PrintedBooklet, secret: string | Buffer): BookletCode {
  if (code.kind !== 'roster') return code
  const { userId, ...rest } = code
  return { ...rest, learner: { tag: learnerTag(secret, code.sittingId, code.rollNumber, userId) } }
}

function body(code: BookletCode): string {
  return `QZ1:${code.sittingId}:${bookletSheetKey(code)}`
}

export function signBookletCode(code: PrintedBooklet, secret: string | Buffer): string {
  if (!inRange(code.sittingId, Number.MAX_SAFE_INTEGER)) throw new RangeError('A sitting id is a positive integer.')
  if (code.kind !== 'spare' && !inRange(code.page, MAX_BOOKLET_PAGES))
    throw new RangeError(`A booklet page is 1..${MAX_BOOKLET_PAGES}.`)
  if (code.kind === 'roster' && (!inRange(code.rollNumber, MAX_ROLL) || !inRange(code.userId, Number.MAX_SAFE_INTEGER)))
    throw new RangeError('A roll number is 1..999999 and a learner id a positive integer.')
  if (code.kind !== 'roster' && !inRange(code.serial, MAX_SERIAL)) throw new RangeError('A serial is 1..999999999.')
  const text = body(readBack(code, secret))
  return `${text}:${mac(text, secret)}`
}

/** Whether a payload is shaped as a booklet page's code (signed or not): the scan route tells pages from sheets so. */
export const looksLikeBookletCode = (payload: string) => PAYLOAD.test(payload)

/** Reads and checks a booklet page's payload: `malformed`, `forged`, `foreign`, or the code. */
export function verifyBookletCode(
  payload: string,
  secret: string | Buffer,
  sittingId: number,
): { ok: true; code: BookletCode } | { ok: false; refusal: 'malformed' | 'forged' | 'foreign' } {
  const match = typeof payload === 'string' ? PAYLOAD.exec(payload) : null
  if (!match) return { ok: false, refusal: 'malformed' }
  const [, sitting, page, roll, learner, tag, blankSerial, spareSerial, given] = match
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
        : {
            sittingId: id,
            kind: 'roster',
            page: Number(page),
            rollNumber: Number(roll),
            learner: tag !== undefined ? { tag } : { userId: Number(learner) },
          }
  return { ok: true, code }
}

/** The printed page a code names, as a booklet page row keeps it (`sheet`). */
export const bookletSheetKey = (code: BookletCode) =>
  code.kind === 'roster'
    ? `W${code.page}R${code.rollNumber}${'tag' in code.learner ? `K${code.learner.tag}` : `U${code.learner.userId}`}`
    : code.kind === 'blank'
      ? `W${code.page}B${code.serial}`
      : `X${code.serial}`

/** The roster learner a roster page was printed for (decision 061's rule, by tag since 089): decision 075. */
export function printedLearner<Entry extends { user_id: number; roll_number: number }>(
  code: Extract<BookletCode, { kind: 'roster' }>,
  roster: Iterable<Entry>,
  secret: string | Buffer,
): { entry: Entry; moved: boolean } | null {
  const entries = [...roster]
  const holder = entries.find((entry) => entry.roll_number === code.rollNumber)
  if (holder && isPrintedFor(code, holder.user_id, secret)) return { entry: holder, moved: false }
  // Only a roster changed since printing gets here: one HMAC a learner (a few microseconds each).
  const named = entries.find((entry) => entry !== holder && isPrintedFor(code, entry.user_id, secret))
  return named ? { entry: named, moved: true } : null
}
