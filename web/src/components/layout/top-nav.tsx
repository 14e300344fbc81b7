import { Suspense, use } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, NavLink } from 'react-router'
import { paths } from '../../lib/paths'
import type { SessionUser } from '../../session/session-store'
import { useInstitute } from '../../lib/institute'
import { homeOf } from '../../session/session-store'
import { useSessionUser } from '../../session/use-session'
import { useBrandName } from './brand-name'
import { LanguageSwitcher } from './language-switcher'

type SignedInNav = typeof import('./signed-in-nav')
let signedInNav: Promise<SignedInNav> | undefined
let loadedSignedInNav: SignedInNav | undefined

/**
 * The nav's signed-in part comes with TanStack Query, which a visitor's screen does not load. The signed-in routes
 * load it with their own code (routes.tsx), so a learner's first screen has it at its first render.
 */
export function loadSignedInNav(): Promise<SignedInNav> {
  signedInNav ??= import('./signed-in-nav').then((module) => (loadedSignedInNav = module))
  return signedInNav
}

function SignedIn({ part, user }: { part: 'SignedInLinks' | 'SignedInAccount'; user: SessionUser }) {
  const Part = (loadedSignedInNav ?? use(loadSignedInNav()))[part]
  return <Part user={user} />
}

export function TopNav() {
  const { t } = useTranslation('nav')
  const user = useSessionUser()
  const institute = useInstitute()
  const brand = useBrandName()

  return (
    <header className="top-nav">
      <a className="skip-link" href="#main">
        {t('skip_to_content')}
      </a>
      <Link to={user ? homeOf(user) : paths.login()} className="top-nav__brand">
        {institute?.logo && (
          <img
            className="top-nav__logo"
            src={institute.logo.url}
            alt=""
            width={institute.logo.width}
            height={institute.logo.height}
          />
        )}
        {brand}
      </Link>
      <nav aria-label={t('main_navigation')} className="top-nav__links">
        {user?.platform ? null : user ? (
          // Just after signing in, until the signed-in part's code has come: no links for that moment.
          <Suspense fallback={null}>
            <SignedIn part="SignedInLinks" user={user} />
          </Suspense>
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
          <Suspense fallback={null}>
            <SignedIn part="SignedInAccount" user={user} />
          </Suspense>
        )}
      </div>
    </header>
  )
}
