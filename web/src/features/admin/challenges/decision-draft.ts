import type { DropPolicy, FlaggedQuestion, KeyAction, KeyDecisionBody } from './key-challenges.api'

// A key decision as the form holds it, the body it stands for, and the form's own checks.

export interface Draft {
  action: KeyAction
  correct: number[]
  dropPolicy: DropPolicy
  note: string
}

export type FieldName = 'action' | 'correct_option_ids' | 'drop_policy' | 'note'
export const FIELDS: readonly string[] = ['action', 'correct_option_ids', 'drop_policy', 'note']

/** The decision as the server takes it, without `dry_run`: a preview stands for exactly this body. */
export function bodyOf(item: FlaggedQuestion, draft: Draft): Omit<KeyDecisionBody, 'dry_run'> {
  const base = { revision_id: item.question.revision_id, action: draft.action, note: draft.note.trim() }
  if (draft.action === 'change' || draft.action === 'accept_several')
    return { ...base, correct_option_ids: [...draft.correct].sort((a, b) => a - b) }
  if (draft.action === 'drop') return { ...base, drop_policy: draft.dropPolicy }
  return base
}

/** The admin's own checks, in the words of the fields they concern; the server checks all of them again. */
export type Problem = 'note_required' | 'choose_one' | 'choose_several'

export function checkDraft(draft: Draft): Partial<Record<FieldName, Problem>> {
  const problems: Partial<Record<FieldName, Problem>> = {}
  if (!draft.note.trim()) problems.note = 'note_required'
  if (draft.action === 'change' && draft.correct.length !== 1) problems.correct_option_ids = 'choose_one'
  if (draft.action === 'accept_several' && draft.correct.length < 2) problems.correct_option_ids = 'choose_several'
  return problems
}
