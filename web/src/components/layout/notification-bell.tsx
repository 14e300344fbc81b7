import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { NavLink, useMatch } from 'react-router'
import { BELL_POLL_MS, notificationsQuery } from '../../api/notifications'
import { digitsFor } from '../../lib/digits'
import { paths, patterns } from '../../lib/paths'

/** Counts above this read "99+": the badge must stay a small circle on a 360 px phone. */
const MAX_SHOWN = 99

/**
 * The bell beside the account menu: a link to the notifications page with the unread count. It asks on focus and
 * every few minutes, and never during an exam, whose screen adds no requests of its own beyond the attempt's.
 */
export function NotificationBell() {
  const { t, i18n } = useTranslation('nav')
  const onExam = useMatch(patterns.quiz) !== null
  const notifications = useQuery({
    ...notificationsQuery(1),
    enabled: !onExam,
    refetchInterval: BELL_POLL_MS,
    refetchOnWindowFocus: true,
  })
  // A failed load shows the bell without a count rather than an error in the nav.
  const unread = notifications.data?.unread ?? 0
  const shown = unread > MAX_SHOWN ? `${MAX_SHOWN}+` : String(unread)
  return (
    <NavLink
      to={paths.notifications()}
      className="bell"
      aria-label={unread > 0 ? t('notifications_unread', { count: unread }) : t('notifications')}
    >
      <svg className="bell__icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
        />
      </svg>
      {unread > 0 && (
        <span className="bell__count" aria-hidden="true">
          {digitsFor(shown, i18n.language)}
        </span>
      )}
    </NavLink>
  )
}
