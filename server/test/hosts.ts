import { expect } from 'vitest'
import { DEFAULT_PASSWORD } from './factories'
import type { TestApp } from './test-app'

/**
 * Requests on a given host, as institutes are told apart (API.md "Institutes: many on one deployment"): `call` sends
 * one with an optional bearer token and body, `accessOf` signs a user in on that host and returns the access token.
 */
export function onHosts(t: TestApp) {
  const call = async (host: string, method: string, url: string, access?: string, payload?: object) => {
    const response = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { host, ...(access && { authorization: `Bearer ${access}` }) },
      ...(payload !== undefined && { payload }),
    })
    return { status: response.statusCode, body: response.body ? response.json() : undefined }
  }
  const accessOf = async (host: string, user: { username: string }) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/token/',
      headers: { host },
      payload: { username: user.username, password: DEFAULT_PASSWORD },
    })
    expect(response.statusCode, response.body).toBe(200)
    return response.json<{ access: string }>().access
  }
  return { call, accessOf }
}
