import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { paths } from '../../../lib/paths'
import { sessionStore } from '../../../session/session-store'
import '../../../i18n/platform.i18n'

/**
 * Where "Act as admin" lands on the institute's address: the 15-minute admin token comes in the fragment (never
 * sent to a server, and taken out of the history at once), becomes this origin's session, and the admin screens open.
 */
export function ActAs() {
  const { t } = useTranslation('platform')
  const navigate = useNavigate()
  const [access] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('access'))
  useEffect(() => {
    window.history.replaceState(null, '', window.location.pathname)
    if (!access) return
    // No refresh token: when the 15 minutes end, the session ends with them.
    sessionStore.setTokens({ access, refresh: '' })
    void navigate(paths.admin(), { replace: true })
  }, [access, navigate])
  return access ? null : <Alert kind="error">{t('platform.institutes.act_failed')}</Alert>
}
