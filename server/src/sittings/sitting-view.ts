import { createHmac } from 'node:crypto'
import { sittingMessages, type OptionLabels, type SittingSet } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { PaperAttempts } from '../attempts/paper-attempts.service'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { NotFound, ValidationFailed } from '../http/errors'
import type { QuestionPapers } from '../questions/question-papers'
import { parseSets, setLetters, type SittingSetPlan } from './sitting-sets'
import { findSitting, type SittingRow } from './sittings.repository'

// A sitting as its services read it: here, so that none of them is the library of the others.

/** The key the sheets' QR codes are signed with: derived from the server's secret, used for nothing else. */
export const sheetSecret = (jwtSecret: string) => createHmac('sha256', jwtSecret).update('sheet-code').digest('hex')

export type SittingsDeps = Pick<AppContext, 'database' | 'clock' | 'config' | 'files'> & {
  papers: QuestionPapers
  paperAttempts: PaperAttempts
}

export interface SittingView extends SittingRow {
  plans: SittingSetPlan[]
  labels: OptionLabels
}

const viewOf = (row: SittingRow): SittingView => ({
  ...row,
  plans: parseSets(row.sets),
  labels: row.option_labels,
})

export async function findSittingView(db: Kysely<DB>, sittingId: number, options?: { lock?: boolean }) {
  const row = await findSitting(db, sittingId, options)
  if (!row) throw new NotFound(sittingMessages.notFound)
  return viewOf(row)
}

export function planOf(sitting: SittingView, set: SittingSet, field = 'set') {
  const plan = sitting.plans.find((candidate) => candidate.set === set)
  if (!plan) throw new ValidationFailed({ [field]: [sittingMessages.setNotPrinted(set, setLetters(sitting.plans))] })
  return plan
}

/** A paper attempt runs the quiz's duration from the sitting's time (API.md: the sitting has the quiz's duration). */
export const deadlineOf = (sitting: Pick<SittingRow, 'held_at' | 'duration_minutes'>) =>
  sitting.held_at + sitting.duration_minutes * 60_000
