import type { Flag, FlagRequest, Regrade } from '@quiz/contracts'
import { api } from '../../api/client'

// Wire shapes of API.md "Answer-key challenges and re-grading": types only from the contracts (zod stays out of the
// learner's bundle); the reasons and the note's limit are in `@quiz/contracts/rules/challenges`.
export type { FlagReason, FlagStatus } from '@quiz/contracts'
export type ReportFlag = Flag
export type ReportRegrade = Regrade

export const flagQuestion = (attemptId: number, body: FlagRequest) =>
  api.post<Flag>(`/results/${attemptId}/flags/`, body)
