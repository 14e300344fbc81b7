import {
  fromHundredths,
  sittingMessages,
  type Scan,
  type ScanBox,
  type ScanFlag,
  type ScanStatus,
  type SittingSet,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { NotFound } from '../http/errors'
import { type ScanReading } from './scan-reading'
import { findSittingView } from './sitting-view'
import { findRecordedScanOf, findScan, type ScanRow } from './sittings.repository'

export type Answers = Record<string, string | null>

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

export function readingOf(row: ScanRow): Omit<ScanReading, 'sheet'> & { status: ScanStatus } {
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
export function auditValues(scan: Omit<ScanReading, 'sheet'> & { status: ScanStatus }) {
  return {
    status: scan.status,
    roll_number: scan.rollNumber,
    set: scan.set,
    user_id: scan.userId,
    answers: scan.answers,
    flags: scan.flags,
  }
}

/** The scan, with its sitting then itself locked (PostgreSQL) in the order an upload locks them. */
export async function lockedScan(trx: Kysely<DB>, scanId: number, lock: boolean) {
  const found = await findScan(trx, scanId)
  if (!found) throw new NotFound(sittingMessages.scanNotFound)
  if (!lock) return found
  await findSittingView(trx, found.sitting_id, { lock })
  const scan = await findScan(trx, scanId, { lock })
  if (!scan) throw new NotFound(sittingMessages.scanNotFound)
  return scan
}

/** A learner already recorded by another sheet of the sitting is for a person, shown the roll grid. */
export async function withDuplicateFlag(
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

export const isClean = (reading: Pick<ScanReading, 'flags' | 'userId' | 'set'>) =>
  reading.flags.length === 0 && reading.userId !== null && reading.set !== null
