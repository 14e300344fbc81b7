// A quiz's paper: saving its sections, freezing and drawing again, and the live pool of a draw being edited.
import type { DrawMode, PassagePool } from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { availableQuizKeys } from '../../../api/available-quizzes'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'
import { filterQuery, noFilters, type BankPage } from '../bank/bank.api'
import type { QuizWithPaper, toSectionsPayload } from './paper-draft'

/** The answer replaces the cached quiz at once (no second request), and what depends on the paper goes stale. */
function usePaperChange<Variables>(quizId: number, send: (variables: Variables) => Promise<QuizWithPaper>) {
  const invalidate = useInvalidate()
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: send,
    onSuccess: (quiz) => {
      queryClient.setQueryData(adminKeys.quiz(quizId), quiz)
      return invalidate(adminKeys.quizList(), adminKeys.bank, availableQuizKeys.all)
    },
  })
}

export function useSaveSections(quizId: number) {
  return usePaperChange(quizId, (body: ReturnType<typeof toSectionsPayload>) =>
    api.put<QuizWithPaper>(`/admin/quizzes/${quizId}/sections/`, body),
  )
}

export function useDrawMode(quizId: number) {
  return usePaperChange(quizId, (draw_mode: DrawMode) =>
    api.patch<QuizWithPaper>(`/admin/quizzes/${quizId}/`, { draw_mode }),
  )
}

export function useFreeze(quizId: number) {
  return usePaperChange(quizId, () => api.post<QuizWithPaper>(`/admin/quizzes/${quizId}/freeze/`))
}

export function useRedraw(quizId: number) {
  return usePaperChange(quizId, () => api.post<QuizWithPaper>(`/admin/quizzes/${quizId}/redraw/`))
}

export interface PoolFilters {
  topic: string
  /** Every tag the draw needs: the bank's list takes `tag` repeated as "all of them", as a draw does. */
  tags: string[]
  difficulty: string
  source: string
}

/** A draw's filters as the bank's query string (both pool counts read them alike). */
function poolParams(filters: PoolFilters) {
  const params = new URLSearchParams(
    filterQuery({
      ...noFilters,
      topic: filters.topic,
      difficulty: filters.difficulty as typeof noFilters.difficulty,
      source: filters.source,
    }),
  )
  for (const tag of filters.tags) params.append('tag', tag)
  return params.toString()
}

/** How many live questions match a draw's filters, from the bank list's count (one row asked for, not shown). */
export const poolQuery = (filters: PoolFilters) => {
  const query = poolParams(filters)
  return queryOptions({
    queryKey: [...adminKeys.bank, 'pool', query] as const,
    queryFn: () => api.get<BankPage>(`/admin/bank/questions/?${query ? `${query}&` : ''}page=1&page_size=1`),
    select: (page) => page.count,
    staleTime: 30_000,
  })
}

/**
 * The question count of each whole passage a `passages: true` draw with these filters may take (decision 131): the
 * Paper tab says before saving whether its count can be made of them.
 */
export const passagePoolQuery = (filters: PoolFilters) => {
  const query = poolParams(filters)
  return queryOptions({
    queryKey: [...adminKeys.bank, 'passage-pool', query] as const,
    queryFn: () => api.get<PassagePool>(`/admin/bank/passages/pool/${query ? `?${query}` : ''}`),
    select: (pool) => pool.passage_sizes,
    staleTime: 30_000,
  })
}
