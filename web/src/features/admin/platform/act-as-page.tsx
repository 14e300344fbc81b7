import { useTranslation } from 'react-i18next'
import { redirect } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { paths } from '../../../lib/paths'
import { sessionStore } from '../../../session/session-store'
import '../../../i18n/platform.i18n'

/**
 * Where "Act as admin" lands on the institute's address: the 15-minute admin token comes in the fragment (never
 * sent to a server, and taken out of the history at once), becomes this origin's session, and the admin screens open.
 */
export function loader() {
  const access = new URLSearchParams(window.location.hash.slice(1)).get('access')
  window.history.replaceState(null, '', window.location.pathname)
  if (!access) return null
  // No refresh token: when the 15 minutes end, the session ends with them.
  sessionStore.setTokens({ access, refresh: '' })
  return redirect(paths.admin())
}

/** Shown only when the address carried no token. */
export function Component() {
  const { t } = useTranslation('platform')
  return <Alert kind="error">{t('platform.institutes.act_failed')}</Alert>
}
