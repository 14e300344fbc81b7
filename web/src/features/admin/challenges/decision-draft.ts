import { KEY_ACTIONS } from '@quiz/contracts/rules/challenges'
import type { NumericDraft as QuestionNumericDraft } from '../quizzes/question-draft'
import type { DropPolicy, FlaggedQuestion, KeyAction, KeyDecisionBody } from './key-challenges.api'

// A key decision as the form holds it, the body it stands for, and the form's own checks.

export interface Draft {
  action: KeyAction
  correct: number[]
  dropPolicy: DropPolicy
  note: string
  /** A numeric question's new key as typed: a value with a tolerance, or a range. */
  numeric: NumericDraft
}

/** As the bank's question form holds a numeric key, without the decimals (a decision does not change them). */
export type NumericDraft = Omit<QuestionNumericDraft, 'decimals'>

/** The form's numeric fields from a key (the one the question scores on now), or blank. */
export function numericDraftOf(answer: FlaggedQuestion['question']['answer']): NumericDraft {
  if (answer && 'min' in answer)
    return { mode: 'range', value: '', tolerance: '0', min: String(answer.min), max: String(answer.max) }
  return {
    mode: 'value',
    value: answer ? String(answer.value) : '',
    tolerance: answer ? String(answer.tolerance) : '0',
    min: '',
    max: '',
  }
}

export type FieldName = 'action' | 'correct_option_ids' | 'answer' | 'drop_policy' | 'note'
export const FIELDS: readonly string[] = ['action', 'correct_option_ids', 'answer', 'drop_policy', 'note']

/** The actions a question's type allows: a numeric question has no options to accept, a right set is a change. */
export const actionsFor = (type: FlaggedQuestion['question']['type']): readonly KeyAction[] =>
  type === 'numeric' || type === 'multiple' ? KEY_ACTIONS.filter((action) => action !== 'accept_several') : KEY_ACTIONS

// A key's number as the bank's form takes it: digits with at most one point, a sign allowed.
const NUMBER = /^[-+]?\d+(\.\d+)?$/
const numberOf = (text: string) => (NUMBER.test(text.trim()) ? Number(text.trim()) : undefined)

function numericAnswer(numeric: NumericDraft) {
  if (numeric.mode === 'range') {
    const [min, max] = [numberOf(numeric.min), numberOf(numeric.max)]
    return min === undefined || max === undefined ? undefined : { min, max }
  }
  const [value, tolerance] = [numberOf(numeric.value), numberOf(numeric.tolerance || '0')]
  return value === undefined || tolerance === undefined ? undefined : { value, tolerance }
}

/** The decision as the server takes it, without `dry_run`: a preview stands for exactly this body. */
export function bodyOf(item: FlaggedQuestion, draft: Draft): Omit<KeyDecisionBody, 'dry_run'> {
  const base = { revision_id: item.question.revision_id, action: draft.action, note: draft.note.trim() }
  if (draft.action === 'change' && item.question.type === 'numeric') {
    const answer = numericAnswer(draft.numeric)
    return answer ? { ...base, answer } : base
  }
  if (draft.action === 'change' || draft.action === 'accept_several')
    return { ...base, correct_option_ids: [...draft.correct].sort((a, b) => a - b) }
  if (draft.action === 'drop') return { ...base, drop_policy: draft.dropPolicy }
  return base
}

/** The admin's own checks, in the words of the fields they concern; the server checks all of them again. */
export type Problem = 'note_required' | 'choose_one' | 'choose_several' | 'choose_set' | 'number_required'

export function checkDraft(
  draft: Draft,
  type: FlaggedQuestion['question']['type'],
): Partial<Record<FieldName, Problem>> {
  const problems: Partial<Record<FieldName, Problem>> = {}
  if (!draft.note.trim()) problems.note = 'note_required'
  if (draft.action === 'change' && type === 'numeric') {
    if (!numericAnswer(draft.numeric)) problems.answer = 'number_required'
  } else if (draft.action === 'change' && type === 'multiple') {
    if (draft.correct.length === 0) problems.correct_option_ids = 'choose_set'
  } else if (draft.action === 'change' && draft.correct.length !== 1) problems.correct_option_ids = 'choose_one'
  if (draft.action === 'accept_several' && draft.correct.length < 2) problems.correct_option_ids = 'choose_several'
  return problems
}
