import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { NavLink, useNavigate } from 'react-router'
import { activePlansQuery } from '../../api/plans'
import { practiceDeckQuery } from '../../api/practice'
import { WithQueries } from '../../api/with-queries'
import { digitsFor } from '../../lib/digits'
import { paths } from '../../lib/paths'
import { logout } from '../../session/logout'
import type { SessionUser } from '../../session/session-store'
import { NotificationBell } from './notification-bell'
import { UserMenu } from './user-menu'

// The nav's signed-in part, in its own chunk with TanStack Query (top-nav.tsx loads it): a visitor never needs it.

function Links({ user }: { user: SessionUser }) {
  const { t, i18n } = useTranslation('nav')
  // "Plans" appears only when some plan is on offer (WEB.md); a failed load just leaves it out.
  const plans = useQuery(activePlansQuery())
  const hasPlans = (plans.data?.length ?? 0) > 0
  // The due count beside "Practice"; a failed load just leaves the count out.
  const deck = useQuery({ ...practiceDeckQuery(), enabled: !user.isAdmin })
  const due = deck.data?.due ?? 0
  return (
    <>
      <NavLink to={paths.home()} end>
        {t('dashboard')}
      </NavLink>
      <NavLink to={paths.results()}>{t('my_results')}</NavLink>
      <NavLink to={paths.progress()}>{t('my_progress')}</NavLink>
      <NavLink to={paths.practice()}>
        {t('practice')}
        {due > 0 && (
          <span className="nav-count" aria-label={t('practice_due', { count: due })}>
            {digitsFor(String(due), i18n.language)}
          </span>
        )}
      </NavLink>
      {hasPlans && <NavLink to={paths.plans()}>{t('plans')}</NavLink>}
      {user.isAdmin && <NavLink to={paths.admin()}>{t('admin_panel')}</NavLink>}
      {user.isMarker && !user.isAdmin && <NavLink to={paths.marking()}>{t('marking')}</NavLink>}
    </>
  )
}

function Account({ user }: { user: SessionUser }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  return (
    <>
      {/* A platform session has no institute, so no notifications (decision 119). */}
      {!user.platform && <NotificationBell />}
      <UserMenu
        username={user.username}
        platform={user.platform}
        onLogout={() => {
          logout()
          navigate(paths.login(), { replace: true })
          // The next person to sign in on this device must not see this learner's cached profile or quizzes.
          queryClient.clear()
        }}
      />
    </>
  )
}

export function SignedInLinks({ user }: { user: SessionUser }) {
  return (
    <WithQueries>
      <Links user={user} />
    </WithQueries>
  )
}

export function SignedInAccount({ user }: { user: SessionUser }) {
  return (
    <WithQueries>
      <Account user={user} />
    </WithQueries>
  )
}
