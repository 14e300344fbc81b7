// The bank's passages (API.md "Question types": a text read under several questions). Only the contracts' types
// cross into the bundle.
import type { Passage, PassageList } from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'
import type { ImagePayload } from '../quizzes/quizzes.api'

export type { Passage, PassageList }

export const PASSAGE_PAGE_SIZE = 50

/** Under the bank's key: a passage's change touches the bank's rows (its questions) and the papers holding it. */
const passageKeys = {
  all: [...adminKeys.bank, 'passages'] as const,
  list: (search: string, page: number, pageSize: number) => [...passageKeys.all, 'list', search, page, pageSize],
  one: (id: number) => [...passageKeys.all, id],
}

export const passageQueries = {
  list: (search: string, page: number, pageSize = PASSAGE_PAGE_SIZE) =>
    queryOptions({
      queryKey: passageKeys.list(search, page, pageSize),
      queryFn: () => {
        const params = new URLSearchParams({ page: String(page), page_size: String(pageSize) })
        if (search.trim()) params.set('search', search.trim())
        return api.get<PassageList>(`/admin/bank/passages/?${params.toString()}`)
      },
    }),
  one: (id: number) =>
    queryOptions({ queryKey: passageKeys.one(id), queryFn: () => api.get<Passage>(`/admin/bank/passages/${id}/`) }),
}

export interface PassagePayload {
  text: { en: string; ne: string }
  image: ImagePayload | null
}

/** A passage's body (its text and picture), then its questions in order: two requests, as API.md has them. */
export function useSavePassage() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, passage }: { id: number | null; passage: PassagePayload }) =>
      id === null
        ? api.post<Passage>('/admin/bank/passages/', passage)
        : api.put<Passage>(`/admin/bank/passages/${id}/`, passage),
    onSettled: () => invalidate(passageKeys.all),
  })
}

export function useSetPassageQuestions() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, questionIds }: { id: number; questionIds: number[] }) =>
      api.put<Passage>(`/admin/bank/passages/${id}/questions/`, { question_ids: questionIds }),
    onSettled: () => invalidate(passageKeys.all),
  })
}

export function useDeletePassage() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/admin/bank/passages/${id}/`),
    onSuccess: () => invalidate(passageKeys.all),
  })
}
