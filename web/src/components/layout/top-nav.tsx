import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link, NavLink, useNavigate } from 'react-router'
import { activePlansQuery } from '../../api/plans'
import { practiceDeckQuery } from '../../api/practice'
import { digitsFor } from '../../lib/digits'
import { paths } from '../../lib/paths'
import { logout } from '../../session/logout'
import { useSessionUser } from '../../session/use-session'
import { LanguageSwitcher } from './language-switcher'
import { UserMenu } from './user-menu'

export function TopNav() {
  const { t, i18n } = useTranslation('nav')
  const user = useSessionUser()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  // "Plans" appears only when some plan is on offer (WEB.md); a failed load just leaves it out.
  const plans = useQuery({ ...activePlansQuery(), enabled: user !== null })
  const hasPlans = (plans.data?.length ?? 0) > 0
  // The due count beside "Practice"; a failed load just leaves the count out.
  const deck = useQuery({ ...practiceDeckQuery(), enabled: user !== null && !user.isAdmin })
  const due = deck.data?.due ?? 0

  return (
    <header className="top-nav">
      <a className="skip-link" href="#main">
        {t('skip_to_content')}
      </a>
      <Link to={user ? paths.home() : paths.login()} className="top-nav__brand">
        {t('brand')}
      </Link>
      <nav aria-label={t('main_navigation')} className="top-nav__links">
        {user ? (
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
          </>
        ) : (
          <>
            <NavLink to={paths.login()}>{t('login')}</NavLink>
            <NavLink to={paths.register()}>{t('register')}</NavLink>
          </>
        )}
      </nav>
      <div className="top-nav__end">
        <LanguageSwitcher />
        {user && (
          <UserMenu
            username={user.username}
            onLogout={() => {
              logout()
              navigate(paths.login(), { replace: true })
              // The next person to sign in on this device must not see this learner's cached profile or quizzes.
              queryClient.clear()
            }}
          />
        )}
      </div>
    </header>
  )
}
