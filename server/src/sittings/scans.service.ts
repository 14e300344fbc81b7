import { sittingMessages, type Scan, type ScanList, type ScanStatus } from '@quiz/contracts'
import { recordAudit, type UserActor } from '../audit/audit-log'
import { AppError, Conflict, NotFound, PayloadTooLarge } from '../http/errors'
import type { SheetReadResult } from './reader/read-sheet'
import { createAttemptRecorder } from './scan-attempt'
import { createScanImages } from './scan-images'
import { createScanReview } from './scan-review'
import { auditValues, isClean, readingOf, toScan, withDuplicateFlag } from './scan-rows'
import { checkPhoto, keptPhoto, notAPhoto } from './scan-photo'
import { withStoredScanPhoto } from './scan-files'
import { readSheetInWorker } from './sheet-reads'
import { interpretReading, retakeOf, type RosterPlace } from './scan-reading'
import { findSittingView, sheetSecret, type SittingsDeps } from './sitting-view'
import {
  findRosterEntry,
  findRosterPlaceOf,
  findScan,
  findScansOfSheet,
  insertScan,
  keepScanPhoto,
  listRoster,
  listScans,
  updateScan,
} from './sittings.repository'

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
      // The refusal's kind beside its sentence: a screen in Nepali says the same cause in its own words.
      return new AppError(422, 'sheet_unreadable', result.message, undefined, undefined, { refusal: result.refusal })
  }
}

// Every scan, correction and deletion is in the audit trail, in the transaction that makes it.
export function createScansService(deps: SittingsDeps) {
  const { database, clock, config, paperAttempts, files } = deps
  const { db } = database
  const lock = database.dialect === 'postgres'
  const secret = sheetSecret(config.jwtSecret)
  const recordAttempt = createAttemptRecorder(deps)

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

  /** Records a sheet's reading, or refuses it keeping nothing (scanSheet's, or the "Scan sheets" place's). */
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

    // The photo goes to the file store first; a refusal in the transaction removes it again (decision 105).
    const scanId = await withStoredScanPhoto(files, kept, (stored) =>
      paperAttempts.transaction(async (trx) => {
        const current = await findSittingView(trx, sittingId, { lock })
        if (current.status === 'closed') throw new Conflict(sittingMessages.closed)
        // The roster as it is now: the learner of a roll number is read in the transaction that records for them.
        const roll = result.code.kind === 'roster' ? result.code.rollNumber : result.roll
        const entry = typeof roll === 'number' && roll > 0 ? await findRosterEntry(trx, sittingId, roll) : undefined
        const named = result.code.kind === 'roster' ? result.code.userId : null
        const place =
          named !== null && entry?.user_id !== named ? await findRosterPlaceOf(trx, sittingId, named) : entry
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
          ...stored,
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
      }),
    )
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

  return {
    scanSheet,
    recordSheet,
    getScan,
    listSittingScans,
    ...createScanReview(deps, { recordAttempt, getScan }),
    ...createScanImages(deps),
  }
}

export type ScansService = ReturnType<typeof createScansService>
