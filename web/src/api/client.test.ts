import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionStore } from '../session/session-store'
import { ApiError } from './api-error'
import { api, freshAccessToken } from './client'

/** An unsigned JWT with the claims the SPA reads (the server verifies; the client only decodes). */
function jwt(claims: Record<string, unknown>) {
  const part = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.signature`
}
const now = () => Math.floor(Date.now() / 1000)
const accessToken = (name: string, expiresIn: number) =>
  jwt({ token_type: 'access', user_id: 7, username: 'sita', is_admin: false, exp: now() + expiresIn, jti: name })

/** The parts of a fetch Response that the client reads. */
function reply(status: number, body?: unknown, headers: Record<string, string> = {}) {
  return {
    ok: status >= 200 && status < 300,
    status,
    json: async () => body,
    headers: new Headers(headers),
  } as Response
}

interface Call {
  url: string
  method: string
  headers: Record<string, string>
  body: BodyInit | null | undefined
}

let calls: Call[]
let routes: (call: Call) => Response | Promise<Response>
const reload = vi.fn()
const realLocation = window.location

beforeEach(() => {
  calls = []
  reload.mockReset()
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const call = {
        url,
        method: init.method ?? 'GET',
        headers: (init.headers ?? {}) as Record<string, string>,
        body: init.body,
      }
      calls.push(call)
      return routes(call)
    }),
  )
  // jsdom's location.reload cannot be spied on; swap the whole location for these tests only.
  Object.defineProperty(window, 'location', { configurable: true, value: { ...realLocation, reload } })
})

afterEach(() => {
  vi.unstubAllGlobals()
  Object.defineProperty(window, 'location', { configurable: true, value: realLocation })
})

const refreshCalls = () => calls.filter((call) => call.url === '/api/token/refresh/')
const apiCalls = () => calls.filter((call) => call.url !== '/api/token/refresh/')

describe('api client', () => {
  it('sends the held access token as a bearer token without refreshing a fresh one', async () => {
    const access = accessToken('fresh', 600)
    sessionStore.setTokens({ access, refresh: 'refresh-1' })
    routes = () => reply(200, [{ id: 1 }])

    await expect(api.get('/quizzes/')).resolves.toEqual([{ id: 1 }])
    expect(refreshCalls()).toHaveLength(0)
    expect(calls[0]).toMatchObject({
      url: '/api/quizzes/',
      method: 'GET',
      headers: { authorization: `Bearer ${access}` },
    })
  })

  it('refreshes an expired access token before the call and stores the rotated refresh token', async () => {
    const expired = accessToken('old', -5)
    const renewed = accessToken('new', 900)
    sessionStore.setTokens({ access: expired, refresh: 'refresh-1' })
    routes = (call) =>
      call.url === '/api/token/refresh/'
        ? reply(200, { access: renewed, refresh: 'refresh-2' })
        : reply(200, { ok: true })

    await api.get('/users/profile/')

    expect(calls.map((call) => call.url)).toEqual(['/api/token/refresh/', '/api/users/profile/'])
    expect(JSON.parse(String(refreshCalls()[0]!.body))).toEqual({ refresh: 'refresh-1' })
    expect(apiCalls()[0]!.headers.authorization).toBe(`Bearer ${renewed}`)
    expect(sessionStore.accessToken()).toBe(renewed)
    expect(sessionStore.refreshToken()).toBe('refresh-2')
  })

  it('also refreshes a token that expires within the safety margin', async () => {
    sessionStore.setTokens({ access: accessToken('nearly', 10), refresh: 'refresh-1' })
    routes = (call) =>
      call.url === '/api/token/refresh/'
        ? reply(200, { access: accessToken('new', 900), refresh: 'refresh-2' })
        : reply(200, {})
    await api.get('/quizzes/')
    expect(refreshCalls()).toHaveLength(1)
  })

  it('shares one refresh between concurrent calls (a rotated refresh token must never be sent twice)', async () => {
    sessionStore.setTokens({ access: accessToken('old', -5), refresh: 'refresh-1' })
    const renewed = accessToken('new', 900)
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    routes = async (call) => {
      if (call.url !== '/api/token/refresh/') return reply(200, { url: call.url })
      await gate
      return reply(200, { access: renewed, refresh: 'refresh-2' })
    }

    const results = Promise.all([api.get('/quizzes/'), api.get('/results/'), api.get('/users/profile/')])
    release()
    await expect(results).resolves.toHaveLength(3)

    expect(refreshCalls()).toHaveLength(1)
    expect(apiCalls()).toHaveLength(3)
    expect(apiCalls().every((call) => call.headers.authorization === `Bearer ${renewed}`)).toBe(true)
  })

  it('clears both tokens and reloads the page when the refresh is refused', async () => {
    sessionStore.setTokens({ access: accessToken('old', -5), refresh: 'revoked' })
    routes = (call) =>
      call.url === '/api/token/refresh/'
        ? reply(401, { detail: 'The refresh token is invalid or expired.', code: 'not_authenticated' })
        : reply(200, {})

    await expect(api.get('/quizzes/')).rejects.toMatchObject({ status: 401, code: 'not_authenticated' })
    expect(sessionStore.accessToken()).toBeNull()
    expect(sessionStore.refreshToken()).toBeNull()
    expect(reload).toHaveBeenCalledTimes(1)
    expect(apiCalls()).toHaveLength(0)
  })

  it("reads a busy server's Retry-After into the error, so a retry can wait as asked", async () => {
    sessionStore.setTokens({ access: accessToken('fresh', 600), refresh: 'refresh-1' })
    routes = () => reply(503, { detail: 'Busy.', code: 'service_unavailable' }, { 'retry-after': '5' })
    await expect(api.get('/quizzes/')).rejects.toMatchObject({ status: 503, retryAfterSeconds: 5 })
    routes = () => reply(503, { detail: 'Busy.', code: 'service_unavailable' })
    await expect(api.get('/quizzes/')).rejects.toMatchObject({ status: 503, retryAfterSeconds: undefined })
  })

  it('keeps the session when the refresh fails for a passing reason (server error, no connection)', async () => {
    const expired = accessToken('old', -5)
    sessionStore.setTokens({ access: expired, refresh: 'refresh-1' })
    routes = () => reply(503, { detail: 'Service unavailable.', code: 'service_unavailable' })
    await expect(api.get('/quizzes/')).rejects.toMatchObject({ status: 503 })

    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('Failed to fetch'))
    const offline = api.get('/quizzes/')
    await expect(offline).rejects.toBeInstanceOf(ApiError)
    await expect(offline).rejects.toMatchObject({ status: 0, isNetworkError: true })

    expect(sessionStore.accessToken()).toBe(expired)
    expect(sessionStore.refreshToken()).toBe('refresh-1')
    expect(reload).not.toHaveBeenCalled()
  })

  it('refreshes once and retries when a fresh-looking token is refused with 401', async () => {
    const refused = accessToken('revoked', 600)
    const renewed = accessToken('new', 900)
    sessionStore.setTokens({ access: refused, refresh: 'refresh-1' })
    routes = (call) => {
      if (call.url === '/api/token/refresh/') return reply(200, { access: renewed, refresh: 'refresh-2' })
      return call.headers.authorization === `Bearer ${refused}`
        ? reply(401, { detail: 'x', code: 'not_authenticated' })
        : reply(200, 'ok')
    }

    const results = await Promise.all([api.get('/quizzes/'), api.get('/results/')])
    expect(results).toEqual(['ok', 'ok'])
    expect(refreshCalls()).toHaveLength(1)
    expect(sessionStore.refreshToken()).toBe('refresh-2')
  })

  it('sends no token when there is none, and none for visitor calls', async () => {
    routes = () => reply(200, { exists: false })
    await api.post('/users/check-username/', { username: 'ram' })
    sessionStore.setTokens({ access: accessToken('a', 600), refresh: 'r' })
    await api.post('/users/check-phone/', { phone_number: '9800000000' }, { auth: false })
    expect(calls.map((call) => call.headers.authorization)).toEqual([undefined, undefined])
    expect(calls[0]!.headers['content-type']).toBe('application/json')
    expect(calls[0]!.body).toBe(JSON.stringify({ username: 'ram' }))
  })

  it('uses an explicit token without touching the session', async () => {
    routes = () => reply(200, { preferred_language: 'ne' })
    await api.get('/users/profile/', { token: 'given-token' })
    expect(calls[0]!.headers.authorization).toBe('Bearer given-token')
    expect(sessionStore.accessToken()).toBeNull()
  })

  it('sends FormData as multipart (no JSON content type, so the browser sets the boundary)', async () => {
    routes = () => reply(200, {})
    const form = new FormData()
    form.set('full_name', 'Sita')
    await api.put('/users/profile/', undefined, { formData: form })
    expect(calls[0]!.method).toBe('PUT')
    expect(calls[0]!.body).toBe(form)
    expect(calls[0]!.headers['content-type']).toBeUndefined()
  })

  it('throws ApiError with the body of API.md, and status 0 when there is no answer', async () => {
    routes = () =>
      reply(400, {
        detail: 'Invalid input.',
        code: 'validation_error',
        errors: { password: ['This password is too common.'] },
      })
    const refused = await api.post('/users/register/', {}).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({
      status: 400,
      code: 'validation_error',
      errors: { password: ['This password is too common.'] },
    })

    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await expect(api.get('/quizzes/')).rejects.toMatchObject({ status: 0, code: 'network_error' })
  })

  it('answers undefined for 204', async () => {
    routes = () => reply(204)
    await expect(api.delete('/admin/quizzes/1/')).resolves.toBeUndefined()
  })

  it('answers undefined for a 201 without a body instead of failing to read JSON', async () => {
    routes = () =>
      ({
        ...reply(201),
        json: () => Promise.reject(new SyntaxError('Unexpected end of JSON input')),
        headers: new Headers({ 'content-length': '0' }),
      }) as Response
    await expect(api.post('/push/subscriptions/', {})).resolves.toBeUndefined()
  })

  it('freshAccessToken answers null without a session', async () => {
    routes = () => reply(500)
    await expect(freshAccessToken()).resolves.toBeNull()
    expect(calls).toHaveLength(0)
  })
})
