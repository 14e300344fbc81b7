import { Navigate, Outlet, useLocation } from 'react-router'
import { paths } from '../lib/paths'
import { homeOf, sessionStore } from './session-store'
import { useSessionUser } from './use-session'

/** SPEC.md section 6: signed-in routes need an access token in local storage, otherwise /login. */
export function RequireAuth() {
  const user = useSessionUser()
  const location = useLocation()
  if (!sessionStore.accessToken() || !user)
    return <Navigate to={paths.login()} replace state={{ from: location.pathname }} />
  // A platform session is no institute's learner: every learner screen would be 404 on the platform's address.
  if (user.platform) return <Navigate to={paths.platform()} replace />
  return <Outlet />
}

/** Admin routes: not signed in -> /login; signed in but not admin -> /. The server checks again on every call. */
export function RequireAdmin() {
  const user = useSessionUser()
  if (!sessionStore.accessToken() || !user) return <Navigate to={paths.login()} replace />
  if (!user.isAdmin) return <Navigate to={paths.home()} replace />
  return <Outlet />
}

/**
 * Marking routes: admins and markers (`is_marker`). A marker reaches these screens and no other admin one; the
 * server checks again on every call.
 */
export function RequireMarker() {
  const user = useSessionUser()
  if (!sessionStore.accessToken() || !user) return <Navigate to={paths.login()} replace />
  if (!user.isAdmin && !user.isMarker) return <Navigate to={paths.home()} replace />
  return <Outlet />
}

/** Visitor screens (login, register, reset) send a signed-in user to where they start. */
export function RequireVisitor() {
  const user = useSessionUser()
  if (user) return <Navigate to={homeOf(user)} replace />
  return <Outlet />
}
