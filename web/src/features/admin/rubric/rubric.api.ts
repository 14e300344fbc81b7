// A written question's rubric (API.md "Written answers marked by rubric"). Only the contracts' types cross into the bundle.
import type { Rubric, RubricInput, RubricResult } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { adminKeys } from '../admin-keys'

export const rubricKey = (questionId: number) => [...adminKeys.bankQuestion(questionId), 'rubric'] as const

export const rubricQueries = {
  rubric: (questionId: number) =>
    queryOptions({
      queryKey: rubricKey(questionId),
      queryFn: () => api.get<Rubric>(`/admin/bank/questions/${questionId}/rubric/`),
    }),
}

/** `dry_run: true` says what the change would re-score and stores nothing. */
export function putRubric(questionId: number, input: RubricInput) {
  return api.put<RubricResult>(`/admin/bank/questions/${questionId}/rubric/`, input)
}
