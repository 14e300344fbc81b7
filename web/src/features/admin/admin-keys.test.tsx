import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { availableQuizKeys } from '../../api/available-quizzes'
import { planKeys } from '../../api/plans'
import { fakeNetwork } from '../../test/page-test-utils'
import { adminKeys } from './admin-keys'
import { useSavePlan } from './billing/billing.api'
import { useUpdateLearner } from './people/people.api'
import { useSaveQuestion } from './quizzes/quizzes.api'

const FILTERS = { actor: '', entity_type: '', action: '', from: '', to: '' } as const

/** A client holding one fresh entry under every admin branch, and the learner's lists an admin change reaches. */
function cacheWithEverything() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } })
  const keys = {
    quizList: adminKeys.quizList(),
    quiz7: adminKeys.quiz(7),
    quiz7Statistics: adminKeys.statistics(7, 'first'),
    quiz8: adminKeys.quiz(8),
    learners: adminKeys.learners('', 1),
    audit: adminKeys.audit(FILTERS, 1),
    adminPlans: adminKeys.plans,
    payments: adminKeys.payments(null, 1),
    learnerQuizzes: availableQuizKeys.available(),
    learnerPlans: planKeys.active(),
    results: ['results'],
  }
  for (const key of Object.values(keys)) queryClient.setQueryData(key, {})
  const stale = () =>
    Object.entries(keys)
      .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
      .map(([name]) => name)
      .sort()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  return { stale, wrapper }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('an admin change invalidates what it touched and the audit log, not the whole cache', () => {
  it('a question: its quiz (details and statistics), the quiz lists', async () => {
    fakeNetwork({ 'POST /api/admin/quizzes/7/questions/': () => ({ status: 201, body: { id: 1 } }) })
    const { stale, wrapper } = cacheWithEverything()
    const { result } = renderHook(() => useSaveQuestion(7), { wrapper })
    await act(() =>
      result.current.mutateAsync({
        questionId: null,
        question: { text: { en: 'Q', ne: '' }, hint: null, topic: '', image: null, options: [] },
      }),
    )
    expect(stale()).toEqual(['audit', 'learnerQuizzes', 'quiz7', 'quiz7Statistics', 'quizList'])
  })

  it('a plan: the admin plans and the learners plans', async () => {
    fakeNetwork({ 'POST /api/admin/plans/': () => ({ status: 201, body: { id: 1 } }) })
    const { stale, wrapper } = cacheWithEverything()
    const { result } = renderHook(() => useSavePlan(), { wrapper })
    await act(() =>
      result.current.mutateAsync({
        id: null,
        plan: { name: { en: 'Month', ne: '' }, price_paisa: 100, days: 30, active: true },
      }),
    )
    expect(stale()).toEqual(['adminPlans', 'audit', 'learnerPlans'])
  })

  it('a learner: the learners', async () => {
    fakeNetwork({ 'PATCH /api/admin/users/3/': () => ({ body: { id: 3 } }) })
    const { stale, wrapper } = cacheWithEverything()
    const { result } = renderHook(() => useUpdateLearner(), { wrapper })
    await act(() => result.current.mutateAsync({ id: 3, patch: { extra_time_percent: 25 } }))
    expect(stale()).toEqual(['audit', 'learners'])
  })
})
