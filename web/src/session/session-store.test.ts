import { describe, expect, it, vi } from 'vitest'
import { ACCESS_KEY, decodeToken, homeOf, REFRESH_KEY, sessionStore } from './session-store'

function base64url(text: string) {
  const bytes = new TextEncoder().encode(text)
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}
const jwt = (claims: unknown) => `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify(claims))}.sig`

describe('decodeToken', () => {
  it('reads username, admin flag, user id and expiry from the payload', () => {
    expect(decodeToken(jwt({ user_id: 3, username: 'hari', is_admin: true, exp: 2_000_000_000 }))).toEqual({
      userId: 3,
      username: 'hari',
      isAdmin: true,
      isMarker: false,
      platform: false,
      exp: 2_000_000_000,
    })
  })

  it("knows a platform session by its institute '~platform', and starts it on the platform's screens", () => {
    const platform = decodeToken(jwt({ username: 'ops', exp: 1, is_platform_admin: true, institute: '~platform' }))
    expect(platform?.platform).toBe(true)
    expect(homeOf(platform)).toBe('/platform')
    // A platform admin signed in to an institute (a member of it) is that institute's user there.
    const member = decodeToken(jwt({ username: 'ops', exp: 1, is_platform_admin: true, institute: 'main' }))
    expect(member?.platform).toBe(false)
    expect(homeOf(member)).toBe('/')
  })

  it('reads the marker flag: only is_marker true makes a marker', () => {
    expect(decodeToken(jwt({ username: 'gita', exp: 1, is_admin: false, is_marker: true }))?.isMarker).toBe(true)
    expect(decodeToken(jwt({ username: 'gita', exp: 1, is_admin: false, is_marker: 'true' }))?.isMarker).toBe(false)
  })

  it('decodes base64url payloads with non-ASCII text', () => {
    expect(decodeToken(jwt({ username: 'सीता', exp: 1, is_admin: false }))?.username).toBe('सीता')
  })

  it('treats anything but is_admin: true as a learner', () => {
    expect(decodeToken(jwt({ username: 'a', exp: 1, is_admin: 'true' }))?.isAdmin).toBe(false)
  })

  it.each([
    ['null', null],
    ['an empty string', ''],
    ['no dots', 'garbage'],
    ['a payload that is not base64', 'aaa.!!!.sig'],
    ['a payload that is not JSON', `x.${base64url('not json')}.sig`],
    ['a JSON payload that is not an object', `x.${base64url('null')}.sig`],
    ['a payload without username', jwt({ exp: 1 })],
    ['a payload without a numeric exp', jwt({ username: 'a', exp: 'soon' })],
  ])('gives null for %s', (_, token) => {
    expect(decodeToken(token)).toBeNull()
  })
})

describe('sessionStore', () => {
  it('keeps the tokens under the keys of SPEC.md and decodes the user', () => {
    sessionStore.setTokens({ access: jwt({ username: 'gita', exp: 5, is_admin: false }), refresh: 'r1' })
    expect(localStorage.getItem(ACCESS_KEY)).toContain('.')
    expect(localStorage.getItem(REFRESH_KEY)).toBe('r1')
    expect(sessionStore.user()?.username).toBe('gita')
  })

  it('leaves no user for an undecodable stored token', () => {
    localStorage.setItem(ACCESS_KEY, 'not-a-token')
    expect(sessionStore.user()).toBeNull()
  })

  it('returns the same user object while the token is unchanged (useSyncExternalStore needs that)', () => {
    sessionStore.setTokens({ access: jwt({ username: 'gita', exp: 5 }), refresh: 'r1' })
    expect(sessionStore.user()).toBe(sessionStore.user())
  })

  it('clear removes both tokens and the user, and tells subscribers', () => {
    const listener = vi.fn()
    const unsubscribe = sessionStore.subscribe(listener)
    sessionStore.setTokens({ access: jwt({ username: 'gita', exp: 5 }), refresh: 'r1' })
    sessionStore.clear()
    unsubscribe()
    sessionStore.setTokens({ access: jwt({ username: 'x', exp: 5 }), refresh: 'r2' })
    expect(listener).toHaveBeenCalledTimes(2)
    sessionStore.clear()
    expect(localStorage.getItem(ACCESS_KEY)).toBeNull()
    expect(localStorage.getItem(REFRESH_KEY)).toBeNull()
    expect(sessionStore.user()).toBeNull()
  })

  it('follows another tab through the storage event', () => {
    const listener = vi.fn()
    const unsubscribe = sessionStore.subscribe(listener)
    window.dispatchEvent(new StorageEvent('storage', { key: ACCESS_KEY }))
    window.dispatchEvent(new StorageEvent('storage', { key: 'language' }))
    unsubscribe()
    expect(listener).toHaveBeenCalledTimes(1)
  })
})
