import { createHash } from 'node:crypto'
import {
  bookletMessages,
  sittingMessages,
  type BookletPage,
  type PageFlag,
  type PageStatus,
  type ScanBox,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { pageBytes, savePageImage, withStoredPages } from '../db/page-images'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { DB } from '../db/schema'
import { AppError, Conflict, NotFound, PayloadTooLarge } from '../http/errors'
import { bookletSheetKey, printedLearner, type BookletCode } from './booklet/booklet-code'
import { keptPage } from '../written/paper-answers.service'
import { answerPageImage } from './booklet-page-image'
import { createBookletJoin, writtenOf } from './booklet-join'
import {
  findBookletPage,
  findPageByUpload,
  findPageImage,
  insertBookletPage,
  listPagesOfSheet,
  listSittingPages,
  updateBookletPage,
  type BookletPageRow,
} from './booklet-pages.repository'
import { auditValues, createPageReview, numbersOfLearner } from './booklet-page-review'
import { questionsOf } from './page-questions'
import type { BookletPageReading, BookletPageResult } from './reader/read-booklet-page'
import type { SheetReadResult } from './reader/read-sheet'
import { checkPhoto, notAPhoto } from './scan-photo'
import { readPageOrSheetInWorker } from './sheet-reads'
import { findRosterEntry, findRosterPlaceOf, listRoster } from './sittings.repository'
import { findSittingView, sheetSecret, type SittingsDeps } from './sitting-view'

// API.md "On paper": photographed booklet pages, read by their signed code and bubbles (docs/decisions/075).

export function toBookletPage(row: BookletPageRow): BookletPage {
  return {
    kind: 'page',
    id: row.id,
    status: row.status,
    roll_number: row.roll_number,
    page_number: row.page_number,
    spare: row.sheet.startsWith('X'),
    learner:
      row.user_id === null ? null : { id: row.user_id, username: row.username ?? '', full_name: row.full_name ?? '' },
    questions: JSON.parse(row.questions) as number[],
    flags: JSON.parse(row.flags) as PageFlag[],
    question_box: JSON.parse(row.question_box) as ScanBox,
  }
}

const pageUnreadable = (message: string, refusal?: string) =>
  new AppError(
    422,
    'page_unreadable',
    bookletMessages.pageUnreadable(message),
    undefined,
    undefined,
    refusal ? { refusal } : undefined,
  )

/** Whose page it is: the code's learner (decision 061's rules), or the roll grid's (blank and spare pages). */
async function learnerOf(
  trx: Kysely<DB>,
  secret: string,
  sittingId: number,
  code: BookletCode,
  reading: BookletPageReading,
) {
  const rollBox = reading.boxes.roll ?? reading.boxes.questions
  const unsure = (marks: string[] = []) => ({ kind: 'roll' as const, marks, box: rollBox })
  if (code.kind === 'roster') {
    const printed = printedLearner(code, await listRoster(trx, sittingId), secret)
    if (printed && !printed.moved) return { userId: printed.entry.user_id, rollNumber: code.rollNumber, flag: null }
    return { userId: printed?.entry.user_id ?? null, rollNumber: printed?.entry.roll_number ?? null, flag: unsure() }
  }
  const roll = typeof reading.roll === 'number' && reading.roll > 0 ? reading.roll : null
  const entry = roll === null ? undefined : await findRosterEntry(trx, sittingId, roll)
  if (!entry) return { userId: null, rollNumber: roll, flag: unsure(roll === null ? [] : [String(roll)]) }
  return { userId: entry.user_id, rollNumber: roll, flag: null }
}

/** Another recorded page of the learner with the same number (a blank booklet's and their own, say). */
async function duplicateOf(
  trx: Kysely<DB>,
  sittingId: number,
  userId: number,
  pageNumber: number,
  pageId: number | null,
) {
  const rows = await listSittingPages(trx, sittingId, 'recorded')
  return rows.find((row) => row.user_id === userId && row.page_number === pageNumber && row.id !== pageId)
}

function refusalOf(result: Extract<BookletPageResult, { ok: false }>) {
  if (result.refusal === 'not_an_image') return notAPhoto()
  if (result.refusal === 'too_large') return new PayloadTooLarge(sittingMessages.photoTooManyPixels)
  if (result.refusal === 'wrong_sitting') return new Conflict(result.message, 'wrong_sitting')
  return pageUnreadable(result.message, result.refusal)
}

/** The earlier scan this photo retakes, and the sheet it is kept as (a copy's `<sheet>/<n>`): decision 075. */
async function placeOnSheet(
  trx: Kysely<DB>,
  sittingId: number,
  code: BookletCode,
  learner: { userId: number | null; rollNumber: number | null },
) {
  const printed = bookletSheetKey(code)
  const scans = await listPagesOfSheet(trx, sittingId, printed)
  const existing =
    code.kind === 'roster'
      ? scans.find((scan) => scan.sheet === printed)
      : scans.find((scan) => scan.user_id === learner.userId && scan.roll_number === learner.rollNumber)
  if (existing || scans.length === 0) return { existing, sheet: printed, copy: false }
  const copies = scans.map((scan) => Number(scan.sheet.split('/')[1] ?? 1))
  return { existing, sheet: `${printed}/${1 + Math.max(...copies)}`, copy: true }
}

export function createBookletPagesService(deps: SittingsDeps) {
  const { database, clock, config, papers, paperAttempts, files } = deps
  const { db } = database
  const lock = database.dialect === 'postgres'
  const secret = sheetSecret(config.jwtSecret)
  const joinBookletPages = createBookletJoin({ papers, paperAttempts, config })

  async function getPage(pageId: number): Promise<BookletPage> {
    const row = await findBookletPage(db, pageId)
    if (!row) throw new NotFound(bookletMessages.pageNotFound)
    return toBookletPage(row)
  }

  /** A booklet page scanned: the page (201, or 200 for a photo already sent), or an answer sheet's reading. */
  async function scanPage(
    sittingId: number,
    photo: Buffer,
    replace: boolean,
    actor: UserActor,
  ): Promise<{ sheet: true; reading: SheetReadResult } | { sheet: false; created: boolean; page: BookletPage }> {
    await checkPhoto(photo)
    const sitting = await findSittingView(db, sittingId)
    if (sitting.status === 'closed') throw new Conflict(sittingMessages.closed)
    const uploadHash = createHash('sha256').update(photo).digest('hex')
    const same = await findPageByUpload(db, sittingId, uploadHash)
    if (same) return { sheet: false, created: false, page: toBookletPage(same) }
    const written = await writtenOf(db, papers, sitting)
    const roster = await listRoster(db, sittingId)
    // One decode and one look at the code, whichever the photo is: a sheet is read on there and then.
    const read = await readPageOrSheetInWorker({
      pageOrSheet: true,
      photo,
      secret,
      sittingId,
      numbersBySet: Object.fromEntries([...written.bySet].map(([set, numbers]) => [set, [...numbers.keys()]])),
      union: written.union,
      setOfLearner: Object.fromEntries(roster.map((row) => [row.user_id, row.set_letter])),
      plans: sitting.plans,
      labels: sitting.labels,
      roster: new Map(roster.map((row) => [row.roll_number, row])),
    })
    if (read.kind === 'sheet') return { sheet: true, reading: read.result }
    const { result } = read
    if (!result.ok) throw refusalOf(result)
    if (written.union.length === 0) throw new Conflict(bookletMessages.noWrittenQuestions)
    const kept = await keptPage(photo)
    const answer = await answerPageImage(kept, result.answerRegion)
    const now = clock.now()
    const { code } = result

    // The page's files go to the store before the transaction; a refusal in it removes them again (decision 105).
    const pageId = await withStoredPages(files, db, [kept, answer], ([storedPage, storedAnswer]) =>
      paperAttempts.transaction(async (trx) => {
        const current = await findSittingView(trx, sittingId, { lock })
        if (current.status === 'closed') throw new Conflict(sittingMessages.closed)
        const learner = await learnerOf(trx, secret, sittingId, code, result)
        const place = learner.userId === null ? undefined : await findRosterPlaceOf(trx, sittingId, learner.userId)
        const read = questionsOf(result, numbersOfLearner(written, place?.set_letter))
        const flags: PageFlag[] = [...(learner.flag ? [learner.flag] : []), ...read.flags]
        // A spare page joins an answer only once a person has said which question it answers (decision 089).
        if (code.kind === 'spare')
          flags.push({ kind: 'spare_page', marks: read.questions.map(String), box: result.boxes.questions })
        const pageNumber = code.kind === 'spare' ? null : code.page
        const { existing, sheet, copy } = await placeOnSheet(trx, sittingId, code, learner)
        if (copy && !flags.some((flag) => flag.kind === 'roll'))
          flags.unshift({
            kind: 'roll',
            marks: learner.rollNumber === null ? [] : [String(learner.rollNumber)],
            box: result.boxes.roll ?? result.boxes.questions,
          })
        if (existing?.status === 'recorded' && !replace)
          throw new AppError(409, 'page_already_scanned', bookletMessages.alreadyScanned, undefined, undefined, {
            page_id: existing.id,
          })
        if (learner.userId !== null && pageNumber !== null && flags.length === 0) {
          const other = await duplicateOf(trx, sittingId, learner.userId, pageNumber, existing?.id ?? null)
          if (other) flags.push({ kind: 'duplicate_page', marks: [String(other.id)], box: result.boxes.questions })
        }
        const status: PageStatus = flags.length === 0 && learner.userId !== null ? 'recorded' : 'needs_review'
        await savePageImage(trx, storedPage!, now)
        await savePageImage(trx, storedAnswer!, now)
        const fields = {
          status,
          roll_number: learner.rollNumber,
          user_id: learner.userId,
          questions: JSON.stringify(read.questions),
          flags: JSON.stringify(flags),
          question_box: JSON.stringify(result.boxes.questions),
          image_hash: kept.hash,
          answer_hash: answer.hash,
          upload_hash: uploadHash,
          scanned_by: actor.id,
          updated_at: now,
        }
        let id: number
        if (existing) {
          id = existing.id
          await updateBookletPage(trx, id, fields)
        } else
          id = await insertBookletPage(trx, {
            sitting_id: sittingId,
            sheet,
            serial: code.kind === 'roster' ? null : code.serial,
            page_number: pageNumber,
            created_at: now,
            ...fields,
          })
        const learners = new Set([existing?.user_id ?? null, learner.userId])
        for (const userId of learners) if (userId !== null) await joinBookletPages(trx, current, userId, now)
        await recordAudit(trx, actor, now, {
          action: existing ? 'update' : 'create',
          entityType: 'scan',
          entityId: id,
          label: `${current.title_en}: booklet page ${sheet}`,
          before: existing ? auditValues(existing) : null,
          after: { status, roll_number: learner.rollNumber, user_id: learner.userId, questions: read.questions, flags },
        })
        return id
      }),
    )
    return { sheet: false, created: true, page: await getPage(pageId) }
  }

  async function listPages(sittingId: number, status?: PageStatus) {
    await findSittingView(db, sittingId)
    const results = (await listSittingPages(db, sittingId, status)).map(toBookletPage)
    return { count: results.length, results }
  }

  async function pageImage(pageId: number) {
    const page = await findBookletPage(db, pageId)
    const image = page && (await findPageImage(db, page.image_hash))
    const data = image && (await pageBytes(files, image))
    if (!image || !data) throw new NotFound(bookletMessages.pageNotFound)
    return { data, type: image.content_type }
  }

  const reviewPage = createPageReview({ ...deps, joinBookletPages, getPage })
  return { scanPage, reviewPage, getPage, listPages, pageImage, joinBookletPages }
}

export type BookletPagesService = ReturnType<typeof createBookletPagesService>
