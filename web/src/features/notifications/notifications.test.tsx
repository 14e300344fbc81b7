import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { RouteObject } from 'react-router'
import { Outlet } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Notification, NotificationPage } from '../../api/notifications'
import { NotificationBell } from '../../components/layout/notification-bell'
import { fakeNetwork, renderRoutes } from '../../test/page-test-utils'
import { Component as NotificationsPage } from './notifications-page'

const notification = (id: number, read: boolean, overrides: Partial<Notification> = {}): Notification => ({
  id,
  kind: 'score_changed',
  text: { en: `Your score changed (${id})`, ne: `तपाईंको अंक बदलियो (${id})` },
  link: `/results/${id}`,
  created_at: '2026-11-22T07:00:00.000Z',
  read,
  ...overrides,
})

/** The server's list after the learner's marks: the unread count follows what was marked. */
function fakeInbox(items: Notification[]) {
  let inbox = items
  const listing = (): NotificationPage => ({
    unread: inbox.filter((item) => !item.read).length,
    count: inbox.length,
    page_size: 20,
    results: inbox,
  })
  return fakeNetwork({
    'GET /api/notifications/': () => ({ body: listing() }),
    'POST /api/notifications/read/': ({ body }) => {
      const { ids, all } = body as { ids?: number[]; all?: true }
      inbox = inbox.map((item) => (all || ids?.includes(item.id) ? { ...item, read: true } : item))
      return { status: 204 }
    },
  })
}

const withBell: RouteObject = {
  element: (
    <>
      <NotificationBell />
      <Outlet />
    </>
  ),
  children: [
    { path: '/notifications', Component: NotificationsPage },
    { path: '/quiz/:quizId', element: <p>exam</p> },
    { path: '/results/:attemptId', element: <p>report</p> },
  ],
}

afterEach(() => vi.unstubAllGlobals())

describe('notification bell and list', () => {
  it('shows the unread count, marks one read and then all, and the count follows', async () => {
    const user = userEvent.setup()
    const network = fakeInbox([notification(3, false), notification(2, false), notification(1, true)])
    renderRoutes([withBell], { path: '/notifications' })

    const bell = await screen.findByRole('link', { name: 'Notifications, 2 unread' })
    expect(bell).toHaveTextContent('2')
    expect(await screen.findByText('Your score changed (3)')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('2 unread')

    const third = screen.getByText('Your score changed (3)').closest('li')!
    await user.click(within(third).getByRole('button', { name: 'Mark as read' }))
    expect(network.callsTo('POST', '/api/notifications/read/')[0]!.body).toEqual({ ids: [3] })
    expect(await screen.findByRole('link', { name: 'Notifications, 1 unread' })).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Mark all as read' }))
    expect(network.callsTo('POST', '/api/notifications/read/')[1]!.body).toEqual({ all: true })
    expect(await screen.findByRole('link', { name: 'Notifications' })).not.toHaveTextContent(/\d/)
    expect(screen.getByRole('status')).toHaveTextContent('All read')
  })

  it('follows a notification to what it is about and marks it read on the way', async () => {
    const user = userEvent.setup()
    const network = fakeInbox([notification(40, false)])
    renderRoutes([withBell], { path: '/notifications' })
    await user.click(await screen.findByRole('link', { name: 'Open' }))
    expect(await screen.findByText('report')).toBeInTheDocument()
    await waitFor(() => expect(network.callsTo('POST', '/api/notifications/read/')).toHaveLength(1))
    expect(network.callsTo('POST', '/api/notifications/read/')[0]!.body).toEqual({ ids: [40] })
  })

  it('follows a decided re-mark to the written answer and reads the report again', async () => {
    const user = userEvent.setup()
    fakeInbox([
      notification(7, false, {
        kind: 'regrade_decided',
        text: { en: 'Your regrade request was accepted.', ne: 'तपाईंको पुनर्जाँच अनुरोध स्वीकार भयो।' },
        link: '/results/40#written-2',
      }),
    ])
    const { router, queryClient } = renderRoutes([withBell], { path: '/notifications' })
    // The written result as cached before the decision.
    queryClient.setQueryData(['results', 40, 'written', 2], { regrade: { request: { status: 'open' } } })
    await user.click(await screen.findByRole('link', { name: 'Open' }))
    expect(await screen.findByText('report')).toBeInTheDocument()
    expect(router.state.location).toMatchObject({ pathname: '/results/40', hash: '#written-2' })
    expect(queryClient.getQueryState(['results', 40, 'written', 2])!.isInvalidated).toBe(true)
  })

  it('says what it will tell, in Nepali too, when there is nothing yet', async () => {
    fakeInbox([])
    renderRoutes([withBell], { path: '/notifications', language: 'ne' })
    expect(await screen.findByText(/फेरि जाँच्ने अनुरोधको निर्णय/)).toBeInTheDocument()
  })

  it('asks nothing during an exam', async () => {
    const network = fakeInbox([notification(1, false)])
    renderRoutes([withBell], { path: '/quiz/5' })
    expect(await screen.findByText('exam')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Notifications' })).toBeInTheDocument()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(network.calls).toEqual([])
  })

  it('speaks Nepali with Devanagari digits', async () => {
    fakeInbox([notification(1, false)])
    renderRoutes([withBell], { path: '/notifications', language: 'ne' })
    expect(await screen.findByRole('link', { name: 'सूचनाहरू, १ नपढिएको' })).toHaveTextContent('१')
    expect(await screen.findByText('तपाईंको अंक बदलियो (1)')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'सबै पढिएको चिनो लगाउनुहोस्' })).toBeInTheDocument()
  })
})
