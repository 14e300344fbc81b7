import { Navigate, useLocation } from 'react-router'
import { paths } from '../../../lib/paths'
import { sessionStore } from '../../../session/session-store'
import { useSessionUser } from '../../../session/use-session'
import { ActAs } from './act-as-page'
import { Component as BankPage } from './bank-page'
import { Component as InstitutesPage } from './institutes-page'
import { Component as NationalPage } from './national-page'
import { PlatformFrame, platformPaths } from './platform-route'

const pages = {
  [platformPaths.institutes]: InstitutesPage,
  [platformPaths.bank]: BankPage,
  [platformPaths.national]: NationalPage,
}

/**
 * The platform admins' screens as one chunk behind one route (`/platform/*`): every lazy route costs the first
 * screen's code its entry and its files' names (web/scripts/report-size.mjs), and these small screens are opened
 * together. Chosen by the path here, not by <Routes>, whose code would otherwise join the first screen's.
 */
export function Component() {
  const location = useLocation()
  const user = useSessionUser()
  const path = location.pathname.replace(/\/+$/, '') || platformPaths.institutes
  // On the institute's address, with no session yet: the acting token is the session.
  if (path === platformPaths.actAs) return <ActAs />
  if (!sessionStore.accessToken() || !user)
    return <Navigate to={paths.login()} replace state={{ from: location.pathname }} />
  const Page = pages[path]
  return <PlatformFrame>{Page ? <Page /> : null}</PlatformFrame>
}
