import type { DropPolicy, KeyAction } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { listDecidedKeys } from './answer-keys.repository'
import { lockRevisionKeys } from './key-locks'

// A question revision's key as decided (docs/decisions/036). A revision without a decision scores on the
// options it was written with; one with a decision scores on its current key version, whatever the revision's
// options say: every finished attempt was re-scored on it, and attempts that start afterwards are scored on it.

export interface AnswerKey {
  revisionId: number
  version: number
  versionId: number
  action: KeyAction
  correct: ReadonlySet<number>
  drop: DropPolicy | null
  note: string
  decidedAt: number
}

/** `excluded`: a dropped question that counts in none of the tallies and leaves max_score. */
export type KeyedOutcome = 'correct' | 'incorrect' | 'unanswered' | 'excluded'

/**
 * The decided keys of those revisions (revisions without a decision are absent). `lock` (PostgreSQL, inside the
 * transaction that finishes an attempt on these keys) share-locks the revisions first, so that no key decision on
 * them commits before that transaction does (key-locks.ts); it may throw KeysBeingDecided.
 */
export async function findAnswerKeys(
  db: Kysely<DB>,
  revisionIds: Iterable<number>,
  { lock = false } = {},
): Promise<Map<number, AnswerKey>> {
  const unique = [...new Set(revisionIds)]
  // A statement of its own after the lock: in READ COMMITTED it sees every decision committed before the lock was
  // granted (one statement joining the locked rows to key_versions would read key_versions as it began).
  const ids = lock ? await lockRevisionKeys(db, unique) : unique
  const keys = new Map<number, AnswerKey>()
  if (ids.length === 0) return keys
  const rows = await listDecidedKeys(db, ids)
  for (const row of rows)
    keys.set(Number(row.revision_id), toAnswerKey({ ...row, revision_id: Number(row.revision_id) }))
  return keys
}

export function toAnswerKey(row: {
  revision_id: number
  id: number
  version: number
  action: AnswerKey['action']
  correct_option_ids: string
  drop_policy: DropPolicy | null
  note: string
  created_at: number
}): AnswerKey {
  return {
    revisionId: row.revision_id,
    version: row.version,
    versionId: row.id,
    action: row.action,
    correct: new Set(JSON.parse(row.correct_option_ids) as number[]),
    drop: row.action === 'drop' ? (row.drop_policy ?? 'full_marks_all') : null,
    note: row.note,
    decidedAt: row.created_at,
  }
}

/**
 * How an answer counts: under the decided key when there is one, else against the revision's own right option.
 * A dropped question counts as right where it scores full marks and as unanswered where it scores nothing
 * (API.md), or in nothing when excluded.
 */
export function keyedOutcome(
  selected: number | null,
  authoredCorrectId: number | null,
  key: AnswerKey | undefined,
): KeyedOutcome {
  if (key?.drop === 'exclude') return 'excluded'
  if (key?.drop === 'full_marks_all') return 'correct'
  if (selected === null) return 'unanswered'
  if (key?.drop === 'full_marks_answered') return 'correct'
  if (key) return key.correct.has(selected) ? 'correct' : 'incorrect'
  return selected === authoredCorrectId ? 'correct' : 'incorrect'
}

/** The hundredths an outcome scores with its section's marks. */
export const keyedMarks = (outcome: KeyedOutcome, marks: { correct: number; wrong: number }) =>
  outcome === 'correct' ? marks.correct : outcome === 'incorrect' ? -marks.wrong : 0

/** Whether an option shows as right under the key (a dropped question keeps showing its written key). */
export const isKeyedCorrect = (optionId: number, authoredCorrect: boolean, key: AnswerKey | undefined) =>
  key && !key.drop ? key.correct.has(optionId) : authoredCorrect

/**
 * Whether the editor (and the bank's export) shows an option as the right one: the decided key where it names exactly one option (a
 * `change`, or a `keep`), else the key as written (several accepted or dropped: `key` tells, and the editor can
 * mark only one).
 */
export function editorIsCorrect(optionId: number, authoredCorrect: boolean, key: AnswerKey | undefined) {
  return key && !key.drop && key.correct.size === 1 ? key.correct.has(optionId) : authoredCorrect
}
