// The institute's members as its admins manage them (API.md "Institutes: many on one deployment", Members).
import type { AddMembersRequest, AddMembersResponse, Member, MemberPage, Role } from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { AddMembersResponse, Member, MemberPage, Role }

export const MEMBERS_PAGE_SIZE = 50

/** The roles in the order the screen shows them. */
export const ROLES: readonly Role[] = ['learner', 'admin', 'marker']

export const memberQueries = {
  list: (search: string, role: Role | '', page: number) =>
    queryOptions({
      queryKey: adminKeys.memberList(search, role, page),
      queryFn: () =>
        api.get<MemberPage>(
          `/admin/members/?search=${encodeURIComponent(search)}${role ? `&role=${role}` : ''}&page=${page}&page_size=${MEMBERS_PAGE_SIZE}`,
        ),
    }),
}

export function useAddMembers() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (request: AddMembersRequest) => api.post<AddMembersResponse>('/admin/members/', request),
    onSuccess: () => invalidate(adminKeys.members, adminKeys.users),
  })
}

export function useSetMemberRoles() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: ({ id, roles }: { id: number; roles: Role[] }) => api.patch<Member>(`/admin/members/${id}/`, { roles }),
    onSuccess: () => invalidate(adminKeys.members, adminKeys.users),
  })
}

export function useEndMembership() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: number) => api.delete(`/admin/members/${id}/`),
    onSuccess: () => invalidate(adminKeys.members, adminKeys.users),
  })
}
