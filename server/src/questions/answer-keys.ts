import type { DropPolicy, KeyAction } from '@quiz/contracts'
import type { NumericKey } from '@quiz/contracts/rules/numbers'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { listDecidedKeys } from './answer-keys.repository'
import { lockRevisionKeys } from './key-locks'

// A revision with a decided key scores on its current key version, whatever its options say (docs/decisions/036).

export interface AnswerKey {
  revisionId: number
  version: number
  versionId: number
  action: KeyAction
  correct: ReadonlySet<number>
  /** A numeric question's decided value or range (API.md "Answer-key challenges"), over the authored one. */
  answer?: NumericKey
  drop: DropPolicy | null
  note: string
  decidedAt: number
}

export type KeyedOutcome = 'correct' | 'incorrect' | 'unanswered' | 'excluded'

// `lock`: PostgreSQL, in the transaction that finishes an attempt on these keys; may throw KeysBeingDecided.
export async function findAnswerKeys(
  db: Kysely<DB>,
  revisionIds: Iterable<number>,
  { lock = false } = {},
): Promise<Map<number, AnswerKey>> {
  const unique = [...new Set(revisionIds)]
  // A statement of its own after the lock: in READ COMMITTED it sees every decision committed before the lock.
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
  numeric_answer?: string | null
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
    ...(row.numeric_answer && { answer: JSON.parse(row.numeric_answer) as NumericKey }),
    drop: row.action === 'drop' ? (row.drop_policy ?? 'full_marks_all') : null,
    note: row.note,
    decidedAt: row.created_at,
  }
}

// A dropped question counts as right where it scores full marks and as unanswered where it scores nothing (API.md).
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

export const keyedMarks = (outcome: KeyedOutcome, marks: { correct: number; wrong: number }) =>
  outcome === 'correct' ? marks.correct : outcome === 'incorrect' ? -marks.wrong : 0

export const isKeyedCorrect = (optionId: number, authoredCorrect: boolean, key: AnswerKey | undefined) =>
  key && !key.drop ? key.correct.has(optionId) : authoredCorrect

// The editor can mark only one: a decided key naming several accepted, or dropped, shows the key as written.
export function editorIsCorrect(optionId: number, authoredCorrect: boolean, key: AnswerKey | undefined) {
  return key && !key.drop && key.correct.size === 1 ? key.correct.has(optionId) : authoredCorrect
}
