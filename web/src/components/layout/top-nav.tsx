import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link, NavLink, useNavigate } from 'react-router'
import { paths } from '../../lib/paths'
import { logout } from '../../session/logout'
import { useSessionUser } from '../../session/use-session'
import { LanguageSwitcher } from './language-switcher'
import { UserMenu } from './user-menu'

export function TopNav() {
  const { t } = useTranslation('nav')
  const user = useSessionUser()
  const navigate = useNavigate()
  const queryClient = useQueryClient()

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
