import { sittingMessages } from '@quiz/contracts'
import { AppError, NotFound } from '../http/errors'
import { readerViewInWorker } from './sheet-reads'
import { blankLayout, setLayout } from './sitting-sets'
import { findSittingView, type SittingsDeps } from './sitting-view'
import { scanPhotoBytes } from './scan-files'
import { findEarlierScanPhoto, findLearnerSheetPhoto, findScan, findScanPhoto } from './sittings.repository'

/** A scan's photos: the kept one, the reader's view of it, earlier ones, and the learner's own sheet. */
export function createScanImages({ database, files }: Pick<SittingsDeps, 'database' | 'files'>) {
  const { db } = database

  /** The photo's bytes and type, from the file store or its row (docs/decisions/105); 404 if it is gone. */
  async function photoOf(row: { photo: Buffer; photo_key: string | null; photo_type: string } | undefined) {
    const data = row && (await scanPhotoBytes(files, row))
    if (!row || !data) return undefined
    return { data, type: row.photo_type }
  }

  async function scanImage(scanId: number) {
    const photo = await photoOf(await findScanPhoto(db, scanId))
    if (!photo) throw new NotFound(sittingMessages.scanNotFound)
    return photo
  }

  /** The reader's view of the scan's photo, for support: where it looked for each bubble and what it saw (066). */
  async function readerView(scanId: number) {
    const scan = await findScan(db, scanId)
    const photo = scan && (await photoOf(await findScanPhoto(db, scanId)))
    if (!scan || !photo) throw new NotFound(sittingMessages.scanNotFound)
    const sitting = await findSittingView(db, scan.sitting_id)
    const plan = sitting.plans.find((candidate) => candidate.set === scan.set_letter)
    const layout = plan
      ? setLayout(plan, sitting.labels, sitting.plans.length)
      : blankLayout(sitting.plans, sitting.labels)
    const drawn = await readerViewInWorker(photo.data, layout)
    if (!drawn) throw new AppError(422, 'sheet_unreadable', sittingMessages.readerViewFailed)
    return { data: drawn, type: 'image/jpeg' }
  }

  /** A photo the scan's later one replaced (migration 0020), for the audit trail. */
  async function earlierScanImage(scanId: number, photoId: number) {
    const photo = await photoOf(await findEarlierScanPhoto(db, scanId, photoId))
    if (!photo) throw new NotFound()
    return photo
  }

  /** The learner's own answer sheet behind a paper attempt; 404 for an online attempt or another learner's. */
  async function learnerSheet(userId: number, attemptId: number) {
    const photo = await photoOf(await findLearnerSheetPhoto(db, attemptId, userId))
    if (!photo) throw new NotFound()
    return photo
  }

  return { scanImage, readerView, earlierScanImage, learnerSheet }
}
