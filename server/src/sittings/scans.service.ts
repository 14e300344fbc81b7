import {
  fromHundredths,
  sittingMessages,
  type Scan,
  type ScanBox,
  type ScanFlag,
  type ScanList,
  type ScanStatus,
  type ScanUpdate,
  type SittingSet,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { changedFields, recordAudit, type UserActor } from '../audit/audit-log'
import type { AttemptRow, DB } from '../db/schema'
import { AppError, Conflict, NotFound, PayloadTooLarge, ValidationFailed, type FieldErrors } from '../http/errors'
import { attemptSections } from '../questions/sections'
import { notify, relink } from '../notifications/notifications.service'
import { createBookletJoin } from './booklet-join'
import { paperResultLink, paperResultNotification } from './paper-result-notification'
import type { SheetReadResult } from './reader/read-sheet'
import { checkPhoto, keptPhoto, notAPhoto } from './scan-photo'
import { readerViewInWorker, readSheetInWorker } from './sheet-reads'
import { interpretReading, retakeOf, type RosterPlace, type ScanReading } from './scan-reading'
import { anySetChoiceNumbers, blankLayout, choiceNumbers, letterIndex, setLayout } from './sitting-sets'
import { deadlineOf, findSittingView, planOf, sheetSecret, type SittingsDeps, type SittingView } from './sitting-view'
import {
  deleteScan,
  findEarlierScanPhoto,
  findLearnerSheetPhoto,
  findRecordedScanOf,
  findRosterEntry,
  findRosterPlaceOf,
  findScan,
  findScanPhoto,
  findScansOfSheet,
  insertScan,
  keepScanPhoto,
  listRoster,
  listScans,
  updateScan,
  type ScanRow,
} from './sittings.repository'

type Answers = Record<string, string | null>

export function toScan(row: ScanRow): Scan {
  return {
    id: row.id,
    status: row.status,
    roll_number: row.roll_number,
    set: row.set_letter as SittingSet | null,
    learner:
      row.user_id === null ? null : { id: row.user_id, username: row.username ?? '', full_name: row.full_name ?? '' },
    answers: JSON.parse(row.answers) as Answers,
    flags: JSON.parse(row.flags) as ScanFlag[],
    score: row.score_hundredths === null ? null : fromHundredths(row.score_hundredths),
    attempt_id: row.attempt_id,
  }
}

/** Nothing of the photo is kept. */
function refusalOf(result: Extract<SheetReadResult, { ok: false }>): AppError {
  switch (result.refusal) {
    case 'not_an_image':
      return notAPhoto()
    case 'too_large':
      return new PayloadTooLarge(sittingMessages.photoTooManyPixels)
    case 'wrong_sitting':
      return new Conflict(result.message, 'wrong_sitting')
    default:
      return new AppError(422, 'sheet_unreadable', result.message)
  }
}

// Every scan, correction and deletion is in the audit trail, in the transaction that makes it.
export function createScansService({ database, clock, config, papers, paperAttempts }: SittingsDeps) {
  const { db } = database
  const lock = database.dialect === 'postgres'
  const secret = sheetSecret(config.jwtSecret)
  const joinBookletPages = createBookletJoin({ papers, paperAttempts, config })

  /**
   * The learner is told in the same transaction, once per result: a sheet recorded anew for its learner keeps the
   * withdrawn attempt's number, their notices point at the new attempt, and a new notice comes only with a new score.
   */
  async function recordAttempt(
    trx: Kysely<DB>,
    sitting: SittingView,
    scan: { userId: number; set: SittingSet; answers: Answers },
    withdrawn: AttemptRow | undefined,
    now: number,
  ) {
    const again = withdrawn?.user_id === scan.userId ? withdrawn : undefined
    const plan = planOf(sitting, scan.set)
    const revisionIds = JSON.parse(sitting.revision_ids) as number[]
    const paper = await papers.paperFor(trx, sitting.revision_ids)
    const answers = new Map<number, number | null>()
    // The sheet's rows are the set's choice questions by their printed numbers; written ones come from booklet pages.
    for (const number of choiceNumbers(plan)) {
      const letter = scan.answers[String(number)] ?? null
      const optionId = letter === null ? null : plan.options[number - 1]![letterIndex(sitting.labels, letter)]!
      answers.set(paper.questions[plan.order[number - 1]!]!.questionId, optionId)
    }
    const sections = sitting.sections ?? JSON.stringify(attemptSections(null, plan.order.length))
    const finished = await paperAttempts.record(trx, {
      userId: scan.userId,
      quizId: sitting.quiz_id,
      sittingId: sitting.id,
      isLiveQuiz: sitting.live_starts_at !== null,
      heldAt: sitting.held_at,
      deadline: deadlineOf(sitting),
      revisionIds: plan.order.map((paperIndex) => revisionIds[paperIndex]!),
      optionOrder: plan.options,
      sections,
      answers,
      number: again?.attempt_number,
      now,
    })
    const { attempt } = finished
    // The learner's booklet pages recorded so far join the attempt's written answers (docs/decisions/075).
    await joinBookletPages(trx, sitting, scan.userId, now)
    if (again) await relink(trx, scan.userId, paperResultLink(again.id), paperResultLink(attempt.id))
    if (again?.score_hundredths !== attempt.score_hundredths)
      await notify(trx, [paperResultNotification(sitting, attempt, attemptSections(sections, 0))], now)
    return attempt
  }

  /** The scan, with its sitting then itself locked (PostgreSQL) in the order an upload locks them. */
  async function lockedScan(trx: Kysely<DB>, scanId: number) {
    const found = await findScan(trx, scanId)
    if (!found) throw new NotFound(sittingMessages.scanNotFound)
    if (!lock) return found
    await findSittingView(trx, found.sitting_id, { lock })
    const scan = await findScan(trx, scanId, { lock })
    if (!scan) throw new NotFound(sittingMessages.scanNotFound)
    return scan
  }

  /**
   * A learner already recorded by another sheet of the sitting (a blank sheet and their own) is for a person, who
   * is shown the roll grid (`rollBox`).
   */
  async function withDuplicateFlag(
    trx: Kysely<DB>,
    sittingId: number,
    reading: ScanReading,
    scanId: number | null,
    rollBox: ScanBox,
  ) {
    if (reading.userId === null || reading.flags.some((flag) => flag.kind === 'roll')) return reading
    const other = await findRecordedScanOf(trx, sittingId, reading.userId, scanId)
    if (!other) return reading
    const flag: ScanFlag = { question: null, kind: 'roll', marks: [], box: rollBox }
    return { ...reading, flags: [flag, ...reading.flags] }
  }

  const isClean = (reading: Pick<ScanReading, 'flags' | 'userId' | 'set'>) =>
    reading.flags.length === 0 && reading.userId !== null && reading.set !== null

  /** A second photo of a recorded sheet is refused unless `replace` (docs/decisions/055 "In the code"). */
  async function scanSheet(sittingId: number, photo: Buffer, replace: boolean, actor: UserActor): Promise<Scan> {
    await checkPhoto(photo)
    const sitting = await findSittingView(db, sittingId)
    if (sitting.status === 'closed') throw new Conflict(sittingMessages.closed)
    const roster = new Map<number, RosterPlace>((await listRoster(db, sittingId)).map((row) => [row.roll_number, row]))
    const result = await readSheetInWorker({
      photo,
      secret,
      sittingId,
      plans: sitting.plans,
      labels: sitting.labels,
      roster,
    })
    return recordSheet(sittingId, photo, result, replace, actor)
  }

  /**
   * Records a sheet's reading, or refuses it keeping nothing: scanSheet's, or the "Scan sheets" place's, which read
   * the photo as a sheet once its code said it was one (booklet-pages.service.ts scanPage).
   */
  async function recordSheet(
    sittingId: number,
    photo: Buffer,
    result: SheetReadResult,
    replace: boolean,
    actor: UserActor,
  ): Promise<Scan> {
    if (!result.ok) throw refusalOf(result)
    const kept = await keptPhoto(photo)
    const now = clock.now()

    const scanId = await paperAttempts.transaction(async (trx) => {
      const current = await findSittingView(trx, sittingId, { lock })
      if (current.status === 'closed') throw new Conflict(sittingMessages.closed)
      // The roster as it is now: the learner of a roll number is read in the transaction that records for them.
      const roll = result.code.kind === 'roster' ? result.code.rollNumber : result.roll
      const entry = typeof roll === 'number' && roll > 0 ? await findRosterEntry(trx, sittingId, roll) : undefined
      const named = result.code.kind === 'roster' ? result.code.userId : null
      const place = named !== null && entry?.user_id !== named ? await findRosterPlaceOf(trx, sittingId, named) : entry
      const read = interpretReading(result, current.plans, current.labels, {
        byRoll: (rollNumber) => (rollNumber === roll ? entry : undefined),
        byLearner: (userId) => (place?.user_id === userId ? place : undefined),
      })
      const retake = retakeOf(read, await findScansOfSheet(trx, sittingId, read.sheet, { lock }), result.boxes.roll)
      const { existing } = retake
      if (existing?.status === 'recorded' && !replace)
        throw new AppError(409, 'sheet_already_scanned', sittingMessages.alreadyScanned, undefined, undefined, {
          scan_id: existing.id,
        })
      const reading = await withDuplicateFlag(trx, sittingId, retake.reading, existing?.id ?? null, result.boxes.roll)
      const withdrawn = existing?.attempt_id ? await paperAttempts.withdraw(trx, existing.attempt_id) : undefined
      const earlierPhoto = existing ? await keepScanPhoto(trx, existing.id, now, actor.id) : null
      const fields = {
        status: (isClean(reading) ? 'recorded' : 'needs_review') as ScanStatus,
        roll_number: reading.rollNumber,
        set_letter: reading.set,
        user_id: reading.userId,
        answers: JSON.stringify(reading.answers),
        flags: JSON.stringify(reading.flags),
        attempt_id: null,
        photo: kept.data,
        photo_type: kept.type,
        scanned_by: actor.id,
        updated_at: now,
      }
      let id: number
      if (existing) {
        id = existing.id
        await updateScan(trx, id, fields)
      } else id = await insertScan(trx, { sitting_id: sittingId, sheet: reading.sheet, created_at: now, ...fields })
      if (isClean(reading)) {
        const attempt = await recordAttempt(
          trx,
          current,
          { userId: reading.userId!, set: reading.set!, answers: reading.answers },
          withdrawn,
          now,
        )
        await updateScan(trx, id, { attempt_id: attempt.id })
      }
      await recordAudit(trx, actor, now, {
        action: existing ? 'update' : 'create',
        entityType: 'scan',
        entityId: id,
        label: `${current.title_en}: sheet ${reading.sheet}`,
        // The photo it read, kept: GET /api/admin/scans/{id}/photos/{photo_id}.
        before: existing ? { ...auditValues(readingOf(existing)), photo_id: earlierPhoto } : null,
        after: auditValues({ ...reading, status: fields.status }),
      })
      return id
    })
    return getScan(scanId)
  }

  async function getScan(scanId: number): Promise<Scan> {
    const row = await findScan(db, scanId)
    if (!row) throw new NotFound(sittingMessages.scanNotFound)
    return toScan(row)
  }

  async function listSittingScans(sittingId: number, status?: ScanStatus): Promise<ScanList> {
    await findSittingView(db, sittingId)
    const results = (await listScans(db, sittingId, status)).map(toScan)
    return { count: results.length, results }
  }

  /** What settles which flag: docs/decisions/055 "In the code". */
  async function reviewScan(scanId: number, body: ScanUpdate, actor: UserActor): Promise<Scan> {
    const now = clock.now()
    await paperAttempts.transaction(async (trx) => {
      const scan = await lockedScan(trx, scanId)
      const sitting = await findSittingView(trx, scan.sitting_id, { lock })
      const before = toScan(scan)
      let flags = before.flags
      const answers = { ...before.answers }
      let set = before.set
      let userId = scan.user_id
      let rollNumber = scan.roll_number
      if (body.set !== undefined) {
        planOf(sitting, body.set)
        set = body.set
        flags = flags.filter((flag) => flag.kind !== 'set')
      }
      if (body.roll_number !== undefined) {
        const entry = await findRosterEntry(trx, sitting.id, body.roll_number)
        if (!entry) throw new ValidationFailed({ roll_number: [sittingMessages.rollNotOnRoster(body.roll_number)] })
        if (await findRecordedScanOf(trx, sitting.id, entry.user_id, scan.id))
          throw new Conflict(sittingMessages.learnerAlreadyRecorded(body.roll_number))
        userId = entry.user_id
        rollNumber = body.roll_number
        flags = flags.filter((flag) => flag.kind !== 'roll')
      }
      const errors: FieldErrors = {}
      // The numbers a sheet of the sitting can print (a blank sheet's rows: any set's choice questions); a letter at a
      // number that is written in the scan's set is no option of it (below), and null settles a mark made there.
      const rows = anySetChoiceNumbers(sitting.plans)
      for (const [key, letter] of Object.entries(body.answers ?? {})) {
        const number = Number(key)
        if (!rows.includes(number)) (errors[`answers.${key}`] ??= []).push(sittingMessages.noSuchQuestion(number, rows))
        answers[key] = letter
        flags = flags.filter((flag) => flag.question !== number)
      }
      if (set !== null) {
        const plan = planOf(sitting, set)
        for (const [key, letter] of Object.entries(answers)) {
          const options = plan.options[Number(key) - 1]?.length ?? 0
          const index = letter === null ? 0 : letterIndex(sitting.labels, letter)
          if (letter !== null && (index < 0 || index >= options) && !errors[`answers.${key}`])
            (errors[`answers.${key}`] ??= []).push(sittingMessages.notAnOption(letter, Number(key)))
        }
      }
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors, Object.values(errors)[0]![0])

      const reading = { flags, userId, set }
      const status: ScanStatus = isClean(reading) ? 'recorded' : 'needs_review'
      const after = auditValues({ status, rollNumber, set, userId, answers, flags })
      const change = changedFields(auditValues(readingOf(scan)), after)
      if (Object.keys(change.after).length === 0 && scan.status === 'recorded') return
      const withdrawn = scan.attempt_id ? await paperAttempts.withdraw(trx, scan.attempt_id) : undefined
      let attemptId: number | null = null
      if (status === 'recorded')
        attemptId = (await recordAttempt(trx, sitting, { userId: userId!, set: set!, answers }, withdrawn, now)).id
      await updateScan(trx, scanId, {
        status,
        answers: JSON.stringify(answers),
        flags: JSON.stringify(flags),
        set_letter: set,
        roll_number: rollNumber,
        user_id: userId,
        attempt_id: attemptId,
        updated_at: now,
      })
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'scan',
        entityId: scanId,
        label: `${sitting.title_en}: sheet ${scan.sheet}`,
        ...change,
      })
    })
    return getScan(scanId)
  }

  async function removeScan(scanId: number, actor: UserActor) {
    const now = clock.now()
    await paperAttempts.transaction(async (trx) => {
      const scan = await lockedScan(trx, scanId)
      const sitting = await findSittingView(trx, scan.sitting_id, { lock })
      if (scan.attempt_id) await paperAttempts.withdraw(trx, scan.attempt_id)
      await deleteScan(trx, scanId)
      await recordAudit(trx, actor, now, {
        action: 'delete',
        entityType: 'scan',
        entityId: scanId,
        label: `${sitting.title_en}: sheet ${scan.sheet}`,
        before: auditValues(readingOf(scan)),
      })
    })
  }

  async function scanImage(scanId: number) {
    const photo = await findScanPhoto(db, scanId)
    if (!photo) throw new NotFound(sittingMessages.scanNotFound)
    return { data: Buffer.from(photo.photo), type: photo.photo_type }
  }

  /** The reader's view of the scan's photo, for support: where it looked for each bubble and what it saw (066). */
  async function readerView(scanId: number) {
    const scan = await findScan(db, scanId)
    const photo = scan && (await findScanPhoto(db, scanId))
    if (!scan || !photo) throw new NotFound(sittingMessages.scanNotFound)
    const sitting = await findSittingView(db, scan.sitting_id)
    const plan = sitting.plans.find((candidate) => candidate.set === scan.set_letter)
    const layout = plan
      ? setLayout(plan, sitting.labels, sitting.plans.length)
      : blankLayout(sitting.plans, sitting.labels)
    const drawn = await readerViewInWorker(photo.photo, layout)
    if (!drawn) throw new AppError(422, 'sheet_unreadable', sittingMessages.readerViewFailed)
    return { data: drawn, type: 'image/jpeg' }
  }

  /** A photo the scan's later one replaced (migration 0020), for the audit trail. */
  async function earlierScanImage(scanId: number, photoId: number) {
    const photo = await findEarlierScanPhoto(db, scanId, photoId)
    if (!photo) throw new NotFound()
    return { data: Buffer.from(photo.photo), type: photo.photo_type }
  }

  /** The learner's own answer sheet behind a paper attempt; 404 for an online attempt or another learner's. */
  async function learnerSheet(userId: number, attemptId: number) {
    const photo = await findLearnerSheetPhoto(db, attemptId, userId)
    if (!photo) throw new NotFound()
    return { data: Buffer.from(photo.photo), type: photo.photo_type }
  }

  return {
    scanSheet,
    recordSheet,
    getScan,
    listSittingScans,
    reviewScan,
    removeScan,
    scanImage,
    readerView,
    earlierScanImage,
    learnerSheet,
  }
}

function readingOf(row: ScanRow): Omit<ScanReading, 'sheet'> & { status: ScanStatus } {
  return {
    status: row.status,
    rollNumber: row.roll_number,
    set: row.set_letter as SittingSet | null,
    userId: row.user_id,
    answers: JSON.parse(row.answers) as Answers,
    flags: JSON.parse(row.flags) as ScanFlag[],
  }
}

/** What the audit trail keeps of a scan: its reading and whose it is (never the photo). */
function auditValues(scan: Omit<ScanReading, 'sheet'> & { status: ScanStatus }) {
  return {
    status: scan.status,
    roll_number: scan.rollNumber,
    set: scan.set,
    user_id: scan.userId,
    answers: scan.answers,
    flags: scan.flags,
  }
}

export type ScansService = ReturnType<typeof createScansService>
