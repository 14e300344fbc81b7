import type { LoginSession, PasswordChangeRequest, Profile, RevokedSessions } from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../api/client'

export const profileKeys = {
  all: ['profile'] as const,
}

export const profileQuery = () =>
  queryOptions({
    queryKey: profileKeys.all,
    queryFn: ({ signal }) => api.get<Profile>('/users/profile/', { signal }),
  })

/** PUT /api/users/profile/ is multipart (API.md): text fields plus an optional `profile_picture` file. */
export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (form: FormData) => api.put<Profile>('/users/profile/', undefined, { formData: form }),
    onSuccess: (profile) => queryClient.setQueryData(profileKeys.all, profile),
  })
}

export const sessionKeys = {
  all: ['auth', 'sessions'] as const,
}

/** GET /api/auth/sessions/: the learner's live logins, the current one marked. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: sessionKeys.all,
    queryFn: ({ signal }) => api.get<LoginSession[]>('/auth/sessions/', { signal }),
  })

/** Logs out one login (DELETE /api/auth/sessions/{id}/) or every other one (POST .../revoke-others/). */
export function useLogOutElsewhere() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (which: { id: string } | 'others') => {
      if (which === 'others') await api.post<RevokedSessions>('/auth/sessions/revoke-others/')
      else await api.delete(`/auth/sessions/${encodeURIComponent(which.id)}/`)
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  })
}

/** POST /api/users/password/: the server logs out every other login of the learner. */
export function useChangePassword() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: PasswordChangeRequest) => api.post<{ detail: string }>('/users/password/', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
  })
}
