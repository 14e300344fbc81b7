import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ComponentType } from 'react'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { vi, type MockInstance } from 'vitest'
import i18n, { initI18n, type Language } from '../i18n/i18n'
import { sessionStore } from '../session/session-store'

/** jsdom has no <dialog> methods: open and close it the way a browser does, by its `open` attribute. */
export function polyfillDialog() {
  const proto = HTMLDialogElement.prototype as HTMLDialogElement & { showModal?: () => void }
  if (!proto.showModal) {
    proto.showModal = function showModal(this: HTMLDialogElement) {
      this.setAttribute('open', '')
    }
    proto.close = function close(this: HTMLDialogElement) {
      this.removeAttribute('open')
    }
  }
}

export interface FakeResponse {
  status?: number
  body?: unknown
}
type Handler = (request: { method: string; path: string; body: unknown }) => FakeResponse | Promise<FakeResponse>

/**
 * Stands in for the network at `fetch` (the page still goes through the real api client): each route is
 * "METHOD /api/path/", every request is recorded, and an unknown route fails the test.
 */
export function fakeNetwork(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = init?.method ?? 'GET'
    // JSON as sent; a multipart form as its fields (files included).
    const body =
      typeof init?.body === 'string'
        ? (JSON.parse(init.body) as unknown)
        : init?.body instanceof FormData
          ? Object.fromEntries(init.body)
          : undefined
    const request = { method, path: url.pathname, body }
    calls.push(request)
    const handler = routes[`${method} ${url.pathname}`]
    if (!handler) throw new Error(`unexpected request ${method} ${url.pathname}`)
    const { status = 200, body: responseBody } = await handler(request)
    // As the server answers: an empty body says so with its length (a 201 without content).
    return new Response(responseBody === undefined ? null : JSON.stringify(responseBody), {
      status,
      headers: responseBody === undefined ? { 'content-length': '0' } : { 'content-type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  }
}

/** Renders routes in a data router (useBlocker needs one) with a fresh QueryClient and i18n in `language`. */
export function renderRoutes(routes: RouteObject[], { path, language = 'en' }: { path: string; language?: Language }) {
  if (!i18n.isInitialized) initI18n(language)
  else void i18n.changeLanguage(language)
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
  return { ...view, router, queryClient }
}

export function page(Component: ComponentType, path: string): RouteObject {
  return { path, Component }
}

/** A session for `user`, as after logging in: the client reads the access token's payload, never its signature. */
export function signInAs(user: { username: string; is_admin: boolean }) {
  const payload = btoa(
    JSON.stringify({ username: user.username, exp: Math.floor(Date.now() / 1000) + 3600, is_admin: user.is_admin }),
  )
  sessionStore.setTokens({ access: `e30.${payload.replace(/=+$/, '')}.sig`, refresh: 'r' })
}

/** A fetch answer as the api client reads it: status, headers (for Retry-After) and a JSON body. */
export const jsonResponse = (status: number, body: unknown) =>
  ({ ok: status < 300, status, headers: new Headers(), json: async () => body }) as Response

/**
 * What a test's fetch spy sent to an address that begins with `url`. Screens' test files share a window (decision 052), so a fetch another file
 * left running (a kept picture of an exam) can reach the spy first: a test finds its request by address, never by
 * its place among the calls.
 */
export function requestTo(fetch: MockInstance<typeof globalThis.fetch>, url: string): RequestInit & { body: string } {
  const call = fetch.mock.calls.find(([address]) => String(address).startsWith(url))
  if (!call) throw new Error(`no request to ${url}: ${fetch.mock.calls.map(([address]) => String(address)).join(', ')}`)
  return call[1] as RequestInit & { body: string }
}

export interface SentRequest {
  key: string
  body: unknown
}

/**
 * Stands in for the network at `fetch` with one function of the request's key ("METHOD /api/url?query", the URL as
 * the api client built it) and JSON body; each request is appended to `sent`.
 */
export function answerFetch(
  answer: (key: string, body: unknown) => { status: number; body: unknown },
  sent: SentRequest[] = [],
) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`
      const body = init?.body ? JSON.parse(init.body as string) : undefined
      sent.push({ key, body })
      const { status, body: responseBody } = answer(key, body)
      return jsonResponse(status, responseBody)
    }),
  )
}

/**
 * A learner table that stacks on a phone (decision 049): every data cell names its column in `data-label`, as the
 * column header says it, so the stacked row reads "Right 1" in the table's language. Returns the labels by row.
 */
export function stackedLabels(table: HTMLElement): string[][] {
  if (!table.classList.contains('stack-table')) throw new Error('not a stacking table')
  const headers = [...table.querySelectorAll('thead th')].map((header) => header.textContent)
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.children].flatMap((cell, index) => {
      if (cell.tagName !== 'TD') return []
      if (cell.getAttribute('data-label') !== headers[index])
        throw new Error(`cell ${index} is not labelled as its column`)
      return [cell.getAttribute('data-label')!]
    }),
  )
}
