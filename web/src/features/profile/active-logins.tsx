import type { LoginSession } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { formatDateTime, toDevanagariDigits } from '../../lib/format'
import { sessionsQuery, useLogOutElsewhere } from './profile.api'
import { Button } from '../../components/ui/button'
import './profile.i18n'

/** "Active logins": each device the learner is logged in on, with Log out for one or for every other. */
export function ActiveLogins() {
  const { t } = useTranslation('profile')
  const sessions = useQuery(sessionsQuery())
  const logOut = useLogOutElsewhere()
  const [done, setDone] = useState<'one' | 'others' | null>(null)
  const others = sessions.data?.filter((session) => !session.current) ?? []

  const run = (which: { id: string } | 'others') => {
    setDone(null)
    logOut.mutate(which, { onSuccess: () => setDone(which === 'others' ? 'others' : 'one') })
  }

  return (
    <section className="card profile-section" aria-labelledby="logins-title">
      <h2 id="logins-title">{t('logins_title')}</h2>
      <p className="field__hint">{t('logins_hint')}</p>
      {done && <Alert kind="success">{t(done === 'one' ? 'logged_out_one' : 'logged_out_others')}</Alert>}
      {logOut.isError && <Alert kind="error">{t('log_out_failed')}</Alert>}
      {sessions.isPending ? (
        <Loading label={t('logins_loading')} />
      ) : sessions.isError ? (
        <Alert kind="error">{t('logins_load_failed')}</Alert>
      ) : (
        <>
          <ul className="logins">
            {sessions.data.map((session) => (
              <Login
                key={session.id}
                session={session}
                busy={logOut.isPending}
                onLogOut={() => run({ id: session.id })}
              />
            ))}
          </ul>
          {others.length === 0 ? (
            <p className="muted">{t('no_other_logins')}</p>
          ) : (
            <Button block disabled={logOut.isPending} onClick={() => run('others')}>
              {t('log_out_others')}
            </Button>
          )}
        </>
      )}
    </section>
  )
}

function Login({ session, busy, onLogOut }: { session: LoginSession; busy: boolean; onLogOut: () => void }) {
  const { t, i18n } = useTranslation('profile')
  const language = i18n.language
  const device = session.device || t('unknown_device')
  const address = session.client_address
    ? language === 'ne'
      ? toDevanagariDigits(session.client_address)
      : session.client_address
    : t('unknown_address')
  return (
    <li className="login">
      <div className="login__text">
        <strong>{device}</strong>
        {session.current && <span className="badge login__current">{t('this_device')}</span>}
        <div className="muted">{address}</div>
        <div className="muted">{t('last_used', { date: formatDateTime(session.last_used_at, language) })}</div>
        <div className="muted">{t('signed_in', { date: formatDateTime(session.created_at, language) })}</div>
      </div>
      {!session.current && (
        <Button small disabled={busy} aria-label={t('log_out_device', { device })} onClick={onLogOut}>
          {t('log_out')}
        </Button>
      )}
    </li>
  )
}
