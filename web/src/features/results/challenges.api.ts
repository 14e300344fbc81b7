import type { Flag, FlagReason, FlagRequest, Regrade } from '@quiz/contracts'
import { api } from '../../api/client'

// Wire shapes of API.md "Answer-key challenges and re-grading": types only from the contracts (zod stays out of
// the learner's bundle), so the reasons and the note's limit are repeated here and checked against them in tests.
export type { FlagReason, FlagStatus } from '@quiz/contracts'
export type ReportFlag = Flag
export type ReportRegrade = Regrade

export const FLAG_REASONS: readonly FlagReason[] = [
  'wrong_key',
  'multiple_correct',
  'no_correct',
  'ambiguous',
  'typo',
  'other',
]

/** API.md: a flag's note is at most 1,000 characters. */
export const FLAG_NOTE_LENGTH = 1000

export const flagQuestion = (attemptId: number, body: FlagRequest) =>
  api.post<Flag>(`/results/${attemptId}/flags/`, body)
