import { sessionStore } from './session-store'

/** Ends the session here and, best effort, on the server (API.md: revoke the login's refresh tokens). */
export function logout() {
  const refresh = sessionStore.refreshToken()
  if (refresh) {
    void fetch('/api/token/revoke/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh }),
      keepalive: true,
    }).catch(() => undefined)
  }
  sessionStore.clear()
}
