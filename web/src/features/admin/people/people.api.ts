// Learners as admins manage them (API.md "Institutions").
import type { AdminUser, AdminUserPage } from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { AdminUser, AdminUserPage }

export const LEARNERS_PAGE_SIZE = 50

export const peopleQueries = {
  learners: (search: string, page: number) =>
    queryOptions({
      queryKey: adminKeys.learners(search, page),
      queryFn: () =>
        api.get<AdminUserPage>(
          `/admin/users/?search=${encodeURIComponent(search)}&page=${page}&page_size=${LEARNERS_PAGE_SIZE}`,
        ),
    }),
}

export interface LearnerPatch {
  has_paid_access?: boolean
  paid_access_until?: string | null
  extra_time_percent?: number
}

export function useUpdateLearner() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, patch }: { id: number; patch: LearnerPatch }) =>
      api.patch<AdminUser>(`/admin/users/${id}/`, patch),
    onSuccess: () => invalidate(adminKeys.users),
  })
}
