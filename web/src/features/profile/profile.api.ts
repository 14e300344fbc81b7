import type { Profile } from '@quiz/contracts'
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
