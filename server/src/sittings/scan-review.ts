import { sittingMessages, type Scan, type ScanStatus, type ScanUpdate } from '@quiz/contracts'
import { changedFields, recordAudit, type UserActor } from '../audit/audit-log'
import { Conflict, ValidationFailed, type FieldErrors } from '../http/errors'
import { numberRefusals, readNumber } from '@quiz/contracts/rules/numbers'
import {
  anySetChoiceNumbers,
  anySetNumericNumbers,
  isMultipleRow,
  joinLetters,
  letterIndex,
  letterIndexes,
  numericRow,
} from './sitting-sets'
import { findSittingView, planOf, type SittingsDeps } from './sitting-view'
import { deleteScanFiles } from './scan-files'
import { deleteScan, findRecordedScanOf, findRosterEntry, scanFileKeys, updateScan } from './sittings.repository'

import { auditValues, isClean, lockedScan, readingOf, toScan } from './scan-rows'
import type { AttemptRecorder } from './scan-attempt'

/** A person's settling of a scan's flags, and its removal. */
export function createScanReview(
  { database, clock, paperAttempts, files }: SittingsDeps,
  { recordAttempt, getScan }: { recordAttempt: AttemptRecorder; getScan: (scanId: number) => Promise<Scan> },
) {
  const lock = database.dialect === 'postgres'

  /** What settles which flag: docs/decisions/055 "In the code". */
  async function reviewScan(scanId: number, body: ScanUpdate, actor: UserActor): Promise<Scan> {
    const now = clock.now()
    await paperAttempts.transaction(async (trx) => {
      const scan = await lockedScan(trx, scanId, lock)
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
      // A letter at a number that is written in the scan's set is refused: the sheet has no row for it.
      const rows = [...new Set([...anySetChoiceNumbers(sitting.plans), ...anySetNumericNumbers(sitting.plans)])].sort(
        (a, b) => a - b,
      )
      let invalidNumber = false
      for (const [key, letter] of Object.entries(body.answers ?? {})) {
        const number = Number(key)
        if (!rows.includes(number)) (errors[`answers.${key}`] ??= []).push(sittingMessages.noSuchQuestion(number, rows))
        answers[key] = letter
        flags = flags.filter((flag) => flag.question !== number)
      }
      if (set !== null) {
        const plan = planOf(sitting, set)
        for (const [key, letter] of Object.entries(answers)) {
          // A numeric question's grid takes a typed number, by the one number rule (API.md "Question types").
          const numeric = numericRow(plan, Number(key))
          if (numeric) {
            const read = letter === null ? null : readNumber(letter, numeric.decimals)
            if (read && !read.ok && !errors[`answers.${key}`]) {
              ;(errors[`answers.${key}`] ??= []).push(numberRefusals[read.reason])
              invalidNumber = true
            } else if (read?.ok) answers[key] = read.text
            continue
          }
          const options = plan.options[Number(key) - 1]?.length ?? 0
          // A multiple question's row takes its letters joined ("AC"), each an option (decision 129).
          const multiple = isMultipleRow(plan, Number(key))
          const indexes =
            letter === null
              ? []
              : multiple
                ? letterIndexes(sitting.labels, letter)
                : [letterIndex(sitting.labels, letter)]
          const wrong =
            letter !== null && (indexes.length === 0 || indexes.some((index) => index < 0 || index >= options))
          if (wrong && !errors[`answers.${key}`])
            (errors[`answers.${key}`] ??= []).push(sittingMessages.notAnOption(letter, Number(key)))
          else if (multiple && letter !== null) answers[key] = joinLetters(sitting.labels, [...letter])
        }
      }
      if (Object.keys(errors).length > 0)
        throw new ValidationFailed(errors, Object.values(errors)[0]![0], invalidNumber ? 'invalid_number' : undefined)

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
    const removed = await paperAttempts.transaction(async (trx) => {
      const scan = await lockedScan(trx, scanId, lock)
      const keys = await scanFileKeys(trx, scanId)
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
      return keys
    })
    // Only once the rows are gone for good: a rolled-back removal keeps its photos.
    await deleteScanFiles(files, removed)
  }

  return { reviewScan, removeScan }
}
