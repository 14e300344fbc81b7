import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { ActiveLogins } from './active-logins'
import { ChangePasswordForm } from './change-password-form'
import { ProfileForm } from './profile-form'
import { profileQuery } from './profile.api'
import './profile.css'
import './profile.i18n'

export function Component() {
  const { t } = useTranslation('profile')
  const profile = useQuery(profileQuery())
  return (
    <section className="profile-page" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('title')}</h1>
      {profile.isPending ? (
        <Loading label={t('loading')} />
      ) : profile.isError ? (
        <Alert kind="error">{t('load_failed')}</Alert>
      ) : (
        <ProfileForm profile={profile.data} />
      )}
      <ChangePasswordForm />
      <ActiveLogins />
    </section>
  )
}
