// Notifications are read by the nav (the bell's unread count) and by the notifications page: shared here.
import type { MarkReadBody, NotificationPage } from '@quiz/contracts'
import { queryOptions } from '@tanstack/react-query'
import { api } from './client'

export type { MarkReadBody, Notification, NotificationKind, NotificationPage } from '@quiz/contracts'

export const notificationKeys = {
  all: ['notifications'] as const,
  page: (page: number) => ['notifications', page] as const,
}

/** How often the bell asks again while the tab is visible: a score change is news of hours, not seconds. */
export const BELL_POLL_MS = 3 * 60_000

export const notificationsQuery = (page = 1) =>
  queryOptions({
    queryKey: notificationKeys.page(page),
    queryFn: ({ signal }) => api.get<NotificationPage>(`/notifications/?page=${page}`, { signal }),
    staleTime: 60_000,
  })

export const markNotificationsRead = (body: MarkReadBody) => api.post<void>('/notifications/read/', body)
