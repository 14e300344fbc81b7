// The platform's bank as an institute's admins read and copy it, and as platform admins browse it (API.md
// "Institutes: many on one deployment", Banks). Only the contracts' types cross into the bundle.
import type { BankList, BankQuestion } from '@quiz/contracts'
import { queryOptions, useMutation } from '@tanstack/react-query'
import { api } from '../../../api/client'
import { adminKeys, useInvalidate } from '../admin-keys'

export type { BankList, BankQuestion }

export const PLATFORM_BANK_PAGE_SIZE = 25

/** Where the platform's bank is read: an institute admin's door to it, or the platform admins' own bank. */
export type PlatformBankBase = '/admin/platform-bank/questions/' | '/platform/bank/questions/'

const keys = {
  all: ['platform-bank'] as const,
  list: (base: PlatformBankBase, search: string, page: number) => [...keys.all, base, 'list', search, page] as const,
  question: (base: PlatformBankBase, id: number) => [...keys.all, base, 'question', id] as const,
}

export const platformBankQueries = {
  list: (base: PlatformBankBase, search: string, page: number) =>
    queryOptions({
      queryKey: keys.list(base, search, page),
      queryFn: ({ signal }) => {
        const params = new URLSearchParams({ page: String(page), page_size: String(PLATFORM_BANK_PAGE_SIZE) })
        if (search.trim()) params.set('search', search.trim())
        return api.get<BankList>(`${base}?${params}`, { signal })
      },
    }),
  question: (base: PlatformBankBase, id: number) =>
    queryOptions({
      queryKey: keys.question(base, id),
      queryFn: ({ signal }) => api.get<BankQuestion>(`${base}${id}/`, { signal }),
    }),
}

/** Copies a platform question into this institute's bank: the institute's lists change, the platform's do not. */
export function useCopyFromPlatform() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: number) => api.post<BankQuestion>(`/admin/platform-bank/questions/${id}/copy/`, {}),
    onSuccess: () => invalidate(adminKeys.bank),
  })
}

/** Takes the platform's newer revision into a copy (the copy gets a new revision; papers keep what they scored). */
export function useUpdateFromSource() {
  const invalidate = useInvalidate()
  return useMutation({
    mutationFn: (id: number) => api.post<BankQuestion>(`/admin/bank/questions/${id}/update-from-source/`, {}),
    onSuccess: () => invalidate(adminKeys.bank),
  })
}
