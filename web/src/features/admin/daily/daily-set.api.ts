import type { DailyDay, DailySettings, DailySettingsBody } from '@quiz/contracts'
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../api/client'

export const dailyKeys = {
  settings: ['admin', 'daily-set'] as const,
  days: (from: string, to: string) => ['admin', 'daily-set', 'days', from, to] as const,
  allDays: ['admin', 'daily-set', 'days'] as const,
}

export const dailySettingsQuery = () =>
  queryOptions({
    queryKey: dailyKeys.settings,
    queryFn: ({ signal }) => api.get<DailySettings>('/admin/daily-set/', { signal }),
  })

export const dailyDaysQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: dailyKeys.days(from, to),
    queryFn: ({ signal }) => api.get<DailyDay[]>(`/admin/daily-set/days/?from=${from}&to=${to}`, { signal }),
  })

/**
 * `onSaved` and `onRefused` are the hook's, not `mutate`'s: the stored settings remount the form, and `mutate`'s own
 * callbacks are dropped with the form that called it.
 */
export function useSaveDailySettings({
  onSaved,
  onRefused,
}: {
  onSaved: () => void
  onRefused: (error: Error) => void
}) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: DailySettingsBody) => api.put<DailySettings>('/admin/daily-set/', body),
    onError: onRefused,
    onSuccess: async (settings) => {
      onSaved()
      queryClient.setQueryData(dailyKeys.settings, settings)
      // The count of a day not yet published follows the settings.
      await queryClient.invalidateQueries({ queryKey: dailyKeys.allDays })
    },
  })
}

export function useFixDailyDay() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ day, questionIds }: { day: string; questionIds: number[] }) =>
      api.put<DailyDay>(`/admin/daily-set/days/${day}/`, { question_ids: questionIds }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: dailyKeys.allDays }),
  })
}
