// Registering for a live mock's reminders (API.md "Live mocks").
import type { QuizListItem } from '@quiz/contracts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { availableQuizKeys } from '../../api/available-quizzes'
import { api } from '../../api/client'

/** POST (register) or DELETE (unregister) `/api/quizzes/{id}/register/`; the list's `registered` follows. */
export function useLiveRegistration(quizId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (register: boolean) =>
      register ? api.post<unknown>(`/quizzes/${quizId}/register/`) : api.delete(`/quizzes/${quizId}/register/`),
    onSuccess: (_answer, register) =>
      queryClient.setQueryData<QuizListItem[]>(availableQuizKeys.available(), (list) =>
        list?.map((quiz) => (quiz.id === quizId ? { ...quiz, registered: register } : quiz)),
      ),
    // A refusal (the join window closed meanwhile) means the list is out of date.
    onError: () => queryClient.invalidateQueries({ queryKey: availableQuizKeys.available() }),
  })
}
