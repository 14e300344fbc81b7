import type { ImportRow } from '@quiz/contracts'
import type { HashedRow } from './rows'

/** Marks the rows the bank already holds (`inBank`: hash -> question id), then those an earlier row of the file holds. */
export function markDuplicates(rows: HashedRow[], inBank: ReadonlyMap<string, number>) {
  const seen = new Map<string, number>()
  for (const row of rows) {
    if (!row.hash) continue
    const questionId = inBank.get(row.hash)
    const earlier = seen.get(row.hash)
    if (questionId !== undefined) {
      row.status = 'duplicate'
      row.duplicate_of = { question_id: questionId, row: null }
      row.messages.push({
        field: 'row',
        code: 'duplicate_in_bank',
        message: `The bank already has this question (question ${questionId}).`,
      })
    } else if (earlier !== undefined) {
      row.status = 'duplicate'
      row.duplicate_of = { question_id: null, row: earlier }
      row.messages.push({
        field: 'row',
        code: 'duplicate_in_file',
        message: `Row ${earlier} of this import is the same question.`,
      })
    } else seen.set(row.hash, row.row)
  }
}

export const summaryOf = (rows: readonly ImportRow[]) => ({
  ok: rows.filter((row) => row.status === 'ok').length,
  fixed: rows.filter((row) => row.status === 'fixed').length,
  rejected: rows.filter((row) => row.status === 'rejected').length,
  duplicate: rows.filter((row) => row.status === 'duplicate').length,
})
