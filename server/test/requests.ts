import type { HTTPMethods } from 'fastify'
import type { UserRow } from '../src/db/schema'
import { bearerFor } from './factories'
import type { TestApp } from './test-app'

/** Requests as `user` through the real app, with a fresh token each call (so a test may move the clock far ahead). */
export const injectAs =
  (t: Pick<TestApp, 'app' | 'tokens'>) => async (user: UserRow, method: HTTPMethods, url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: await bearerFor(t.tokens, user), payload: payload as object })

/** As learner-api's requestsAs, for routes that also answer without a body (201, 204): `body` is then null. */
export function requestsWithEmptyBodies(t: Pick<TestApp, 'app' | 'tokens'>) {
  return async (user: UserRow, method: HTTPMethods, url: string, payload?: unknown) => {
    const response = await injectAs(t)(user, method, url, payload)
    return { status: response.statusCode, body: response.body === '' ? null : response.json(), raw: response.body }
  }
}

/** A request with the given headers (a bearer, usually), its payload sent only when there is one. */
export function injectWith(
  app: TestApp['app'],
  headers: Record<string, string>,
  method: string,
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method: method as HTTPMethods,
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  })
}
