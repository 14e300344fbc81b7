import { decodeToken, sessionStore } from '../session/session-store'
import { ApiError } from './api-error'

/** WEB.md: SPEC.md's client has no timeout, which hangs auto-submit on a bad connection. */
export const REQUEST_TIMEOUT_MS = 15_000
/** Refresh a little before expiry so a request never races the clock. */
const EXPIRY_MARGIN_SECONDS = 30

interface RequestOptions {
  body?: unknown
  formData?: FormData
  /** Send the bearer token (default true when one is held). */
  auth?: boolean
  /** Send this bearer token instead of the session's (login reads the profile before the session starts). */
  token?: string
  signal?: AbortSignal
  timeoutMs?: number
  /** Read the body as a Blob (a file to download) instead of JSON. */
  blob?: boolean
}

let refreshing: Promise<string | null> | null = null

function isFresh(token: string) {
  const user = decodeToken(token)
  return user !== null && user.exp - EXPIRY_MARGIN_SECONDS > Date.now() / 1000
}

/** The session is over: SPEC.md says both tokens go and the page reloads (the guards then show /login). */
function endSession() {
  sessionStore.clear()
  window.location.reload()
}

async function refreshTokens(): Promise<string | null> {
  const refresh = sessionStore.refreshToken()
  if (!refresh) return null
  let response: Response
  try {
    response = await fetch('/api/token/refresh/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
  } catch (error) {
    // No answer (offline, timeout): the session may still be good, so keep it and fail like any request.
    throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'Network error')
  }
  if (!response.ok) {
    // 4xx: the refresh token is dead. Anything else is a passing failure: keep the session.
    if (response.status >= 400 && response.status < 500) endSession()
    throw await ApiError.fromResponse(response)
  }
  const tokens = (await response.json()) as { access: string; refresh: string }
  sessionStore.setTokens(tokens)
  return tokens.access
}

/**
 * One refresh at a time, across tabs too (API.md: rotated refresh tokens die when reused, so two tabs, or two
 * calls answered 401 together, refreshing with the same token would end the session). The Web Locks API
 * serialises tabs; after waiting, a caller re-reads the token another tab or call may already have refreshed.
 * `stale` is the access token that is expired or was refused: it is never handed back.
 */
function refreshOnce(stale: string): Promise<string | null> {
  refreshing ??= (async () => {
    try {
      const run = async () => {
        const latest = sessionStore.accessToken()
        return latest && latest !== stale && isFresh(latest) ? latest : refreshTokens()
      }
      return navigator.locks ? await navigator.locks.request('quiz-token-refresh', run) : await run()
    } finally {
      refreshing = null
    }
  })()
  return refreshing
}

export function freshAccessToken(): Promise<string | null> {
  const current = sessionStore.accessToken()
  if (!current || isFresh(current)) return Promise.resolve(current)
  return refreshOnce(current)
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { body, formData, auth = true, token: explicitToken, signal, timeoutMs = REQUEST_TIMEOUT_MS } = options
  const send = async (token: string | null) => {
    const headers: Record<string, string> = { accept: options.blob ? '*/*' : 'application/json' }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (token) headers.authorization = `Bearer ${token}`
    const timeout = AbortSignal.timeout(timeoutMs)
    try {
      return await fetch(`/api${path}`, {
        method,
        headers,
        body: formData ?? (body === undefined ? undefined : JSON.stringify(body)),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
    } catch (error) {
      if (signal?.aborted) throw error
      throw new ApiError(0, 'network_error', error instanceof Error ? error.message : 'Network error')
    }
  }

  let token = explicitToken ?? (auth ? await freshAccessToken() : null)
  let response = await send(token)
  if (response.status === 401 && token && !explicitToken && sessionStore.refreshToken()) {
    // The access token was refused although it looked fresh (revoked, or a clock far off): refresh once.
    token = await refreshOnce(token)
    response = await send(token)
  }
  if (!response.ok) throw await ApiError.fromResponse(response)
  // 204, or a 201 the server sends without a body (a push subscription, a live-mock registration).
  if (response.status === 204 || response.headers.get('content-length') === '0') return undefined as T
  if (options.blob) return (await response.blob()) as T
  return (await response.json()) as T
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T = void>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  blob: (path: string, options?: RequestOptions) => request<Blob>('GET', path, { ...options, blob: true }),
}
