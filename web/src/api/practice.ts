// The mistake deck is read by the nav (the due count) and by the practice feature: shared here.
import type { PracticeAnswerResult, PracticeDeck } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'

export type { PracticeAnswerResult, PracticeCard, PracticeDeck } from '@quiz/contracts'

export const practiceKeys = { deck: ['practice', 'deck'] as const }

export const practiceDeckQuery = () =>
  queryOptions({
    queryKey: practiceKeys.deck,
    queryFn: ({ signal }) => api.get<PracticeDeck>('/practice/', { signal }),
    staleTime: 60_000,
  })

export const answerPracticeCard = (questionId: number, optionId: number) =>
  api.post<PracticeAnswerResult>(`/practice/${questionId}/`, { option_id: optionId })

/** A multiple question's ticked option ids or a numeric question's typed string, as an autosave sends them. */
export const answerPracticeTyped = (questionId: number, answer: number[] | string) =>
  api.post<PracticeAnswerResult>(`/practice/${questionId}/`, { answers: { [questionId]: answer } })
