import type { Membership } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { api } from '../../api/client'
import { instituteName, pageInstitute } from '../../lib/institute'

/** An institute's address on this scheme and port (development runs on one port for every host). */
function addressOf(host: string) {
  const { protocol, port } = window.location
  return `${protocol}//${host}${port ? `:${port}` : ''}/`
}

/**
 * WEB.md "Institutes": a learner of several institutes finds "My institutes" in the profile menu, with a link to each
 * one's address (a token is for one institute, so each is signed in on its own address).
 */
export function MyInstitutes() {
  const { t, i18n } = useTranslation('nav')
  const memberships = useQuery({
    queryKey: ['memberships'],
    queryFn: () => api.get<Membership[]>('/users/memberships/'),
    staleTime: 5 * 60_000,
  })
  const reachable = (memberships.data ?? []).filter((membership) => membership.institute.hosts.length > 0)
  if (reachable.length < 2) return null
  const here = pageInstitute()?.slug
  return (
    <nav className="user-menu__institutes" aria-label={t('my_institutes')}>
      <p className="user-menu__heading">{t('my_institutes')}</p>
      <ul>
        {reachable.map(({ institute }) => (
          <li key={institute.slug}>
            <a
              href={addressOf(institute.hosts[0]!)}
              aria-current={institute.slug === here ? 'page' : undefined}
              lang={i18n.language === 'ne' && institute.name.ne ? 'ne' : 'en'}
            >
              {instituteName(institute, i18n.language)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}
