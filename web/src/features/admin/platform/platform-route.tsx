import { useTranslation } from 'react-i18next'
import { NavLink, Outlet } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { paths } from '../../../lib/paths'
import { sessionStore } from '../../../session/session-store'
import { useSessionUser } from '../../../session/use-session'
import '../admin.css'
import '../../../i18n/platform.i18n'

/** Whether the access token says platform admin; decoded here so the first screen's code does not grow. */
export function isPlatformAdminToken(token: string | null): boolean {
  const payload = token?.split('.')[1]
  if (!payload) return false
  try {
    const json = atob(
      payload
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(payload.length / 4) * 4, '='),
    )
    return (JSON.parse(json) as { is_platform_admin?: unknown }).is_platform_admin === true
  } catch {
    return false
  }
}

/**
 * The platform admins' screens (WEB.md "Institutes"): signed in as a platform admin, else a sentence saying whose
 * they are. The server checks again on every call, and answers them only on the platform's own address.
 */
export function Component() {
  const { t } = useTranslation('platform')
  useSessionUser() // re-render when the session changes
  if (!isPlatformAdminToken(sessionStore.accessToken()))
    return (
      <div className="admin">
        <h1>{t('platform.title')}</h1>
        <Alert kind="info">{t('platform.not_platform_admin')}</Alert>
      </div>
    )
  return (
    <div className="admin">
      <nav className="admin-nav" aria-label={t('platform.nav_label')}>
        <NavLink to={paths.platform()} end>
          {t('platform.institutes.nav')}
        </NavLink>
        <NavLink to={paths.platformBank()}>{t('platform.bank.nav')}</NavLink>
        <NavLink to={paths.platformNationalMocks()}>{t('platform.national.nav')}</NavLink>
      </nav>
      <Outlet />
    </div>
  )
}
