import { paths } from '../lib/paths'

/** The session lives in localStorage (SPEC.md: keys accessToken and refreshToken); the user is decoded from the access token. */
export const ACCESS_KEY = 'accessToken'
export const REFRESH_KEY = 'refreshToken'

/** The institute a platform admin's own token names (no slug can be it: slugs are a-z, 0-9 and -). */
export const PLATFORM_SCOPE = '~platform'

export interface SessionUser {
  userId: number
  username: string
  isAdmin: boolean
  /** May mark written answers (API.md: `is_marker` opens the marking routes and nothing else of admin). */
  isMarker: boolean
  /**
   * Signed in to the platform itself, not to an institute: the token's institute is `~platform` (API.md "Platform
   * admins", server/src/http/platform-address.ts). Such a session has the platform's screens and no learner's.
   */
  platform: boolean
  /** Expiry, epoch seconds. */
  exp: number
}

/** Where a signed-in user starts: the dashboard, or the platform's screens for a platform session. */
export const homeOf = (user: Pick<SessionUser, 'platform'> | null) => (user?.platform ? paths.platform() : paths.home())

/** Decodes a JWT's payload without verifying it (the server verifies); anything malformed gives null. */
export function decodeToken(token: string | null): SessionUser | null {
  if (!token) return null
  try {
    const payload = token.split('.')[1]
    if (!payload) return null
    const base64 = payload
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(payload.length / 4) * 4, '=')
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>
    if (typeof claims.username !== 'string' || typeof claims.exp !== 'number') return null
    return {
      userId: typeof claims.user_id === 'number' ? claims.user_id : 0,
      username: claims.username,
      isAdmin: claims.is_admin === true,
      isMarker: claims.is_marker === true,
      platform: claims.institute === PLATFORM_SCOPE,
      exp: claims.exp,
    }
  } catch {
    return null
  }
}

type Listener = () => void
const listeners = new Set<Listener>()
let cachedToken: string | null | undefined
let cachedUser: SessionUser | null = null

function emit() {
  for (const listener of listeners) listener()
}

// Another tab logging in, out or refreshing changes our session too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === ACCESS_KEY || event.key === REFRESH_KEY) emit()
  })
}

export const sessionStore = {
  accessToken: () => localStorage.getItem(ACCESS_KEY),
  refreshToken: () => localStorage.getItem(REFRESH_KEY),
  setTokens({ access, refresh }: { access: string; refresh: string }) {
    localStorage.setItem(ACCESS_KEY, access)
    localStorage.setItem(REFRESH_KEY, refresh)
    emit()
  },
  clear() {
    localStorage.removeItem(ACCESS_KEY)
    localStorage.removeItem(REFRESH_KEY)
    emit()
  },
  /** The signed-in user, or null; stable between calls while the token is unchanged (useSyncExternalStore needs that). */
  user(): SessionUser | null {
    const token = localStorage.getItem(ACCESS_KEY)
    if (token !== cachedToken) {
      cachedToken = token
      cachedUser = decodeToken(token)
    }
    return cachedUser
  },
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
}
