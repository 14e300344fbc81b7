import { useTranslation } from 'react-i18next'
import type { ReactNode } from 'react'
import { NavLink } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { paths } from '../../../lib/paths'
import { sessionStore } from '../../../session/session-store'
import { useSessionUser } from '../../../session/use-session'
import '../admin.css'
import '../../../i18n/platform.i18n'

/** The platform's screens, under `paths.platform()` (kept here: the first screen's code carries only that one). */
export const platformPaths = {
  institutes: paths.platform(),
  bank: `${paths.platform()}/bank`,
  national: `${paths.platform()}/national-mocks`,
  /** Where "Act as admin" lands on the institute's address, the token in the fragment. */
  actAs: `${paths.platform()}/act-as`,
} as const

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
export function PlatformFrame({ children }: { children: ReactNode }) {
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
        <NavLink to={platformPaths.institutes} end>
          {t('platform.institutes.nav')}
        </NavLink>
        <NavLink to={platformPaths.bank}>{t('platform.bank.nav')}</NavLink>
        <NavLink to={platformPaths.national}>{t('platform.national.nav')}</NavLink>
      </nav>
      {children}
    </div>
  )
}
