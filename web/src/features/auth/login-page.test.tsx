import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { configure, render, screen, waitFor } from '@testing-library/react'
import userEventLibrary from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import i18n, { LANGUAGE_KEY } from '../../i18n/i18n'
import { sessionStore } from '../../session/session-store'
import { jsonResponse } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { Component as LoginPage } from './login-page'

// The machine running the suite may be busy: give answers longer than the default 1 s to arrive.
configure({ asyncUtilTimeout: 4000 })

/** No pause between keystrokes: these tests are about what the screen says, not typing speed. */
const userEvent = userEventLibrary.setup({ delay: null })

type Route = (body: Record<string, unknown>) => { status: number; body: unknown }
let routes: Record<string, Route>
let calls: { url: string; body: Record<string, unknown> }[]

// Login by code is fetched right after the page's own code (login-page.tsx); here, before the first test clicks it.
beforeAll(() => import('./otp-login'))

beforeEach(() => {
  calls = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET'
      const body =
        init.body instanceof FormData
          ? Object.fromEntries(init.body)
          : (JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>)
      calls.push({ url, body })
      const answer = (routes[`${method} ${url}`] ?? routes[url])?.(body) ?? {
        status: 404,
        body: { detail: 'Not found.', code: 'not_found' },
      }
      return jsonResponse(answer.status, answer.body)
    }),
  )
})
afterEach(() => vi.unstubAllGlobals())

describe('login page', () => {
  it('requires both fields', async () => {
    routes = {}
    renderWithProviders(<LoginPage />, { route: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Login' }))
    expect(screen.getAllByText('This field is required.')).toHaveLength(2)
    expect(calls).toHaveLength(0)
  })

  it('shows the login failure of SPEC.md, and the wait note on 429', async () => {
    let status = 401
    routes = {
      '/api/token/': () => ({ status, body: { detail: 'Invalid username or password.', code: 'invalid_credentials' } }),
    }
    renderWithProviders(<LoginPage />, { route: '/login' })
    await userEvent.type(screen.getByLabelText('Username'), 'sita')
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password')
    await userEvent.click(screen.getByRole('button', { name: 'Login' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed. Please check your credentials.')
    expect(calls[0]).toEqual({ url: '/api/token/', body: { username: 'sita', password: 'wrong-password' } })

    status = 429
    await userEvent.click(screen.getByRole('button', { name: 'Login' }))
    expect(await screen.findByText('Too many attempts. Please wait a little and try again.')).toBeInTheDocument()
  })

  it('shows and hides the password', async () => {
    routes = {}
    renderWithProviders(<LoginPage />, { route: '/login' })
    const password = screen.getByLabelText('Password')
    const toggle = screen.getByRole('button', { name: 'Show password' })
    expect(password).toHaveAttribute('type', 'password')
    await userEvent.click(toggle)
    expect(password).toHaveAttribute('type', 'text')
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await userEvent.click(toggle)
    expect(password).toHaveAttribute('type', 'password')
  })

  it('sends a login OTP, then verifies the code', async () => {
    routes = {
      '/api/users/otp/send/': () => ({
        status: 200,
        body: { detail: 'OTP sent to your phone.', expires_in: 300, resend_in: 60 },
      }),
      '/api/users/otp/verify/': () => ({
        status: 400,
        body: { detail: 'Invalid or expired OTP.', code: 'invalid_otp' },
      }),
    }
    renderWithProviders(<LoginPage />, { route: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Phone OTP' }))
    await userEvent.type(screen.getByLabelText('Phone Number'), '9812345678')
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    expect(await screen.findByRole('status')).toHaveTextContent('OTP sent to your phone.')
    expect(calls[0]!.body).toEqual({ phone_number: '9812345678', purpose: 'login', language: 'en' })
    await waitFor(() => expect(screen.getByLabelText('OTP')).toHaveFocus())
    expect(screen.getByText(/You can ask for a new code in 60 s/)).toBeInTheDocument()

    await userEvent.type(screen.getByLabelText('OTP'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Verify & Login' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Login failed. Invalid or expired OTP.')
    expect(calls[1]!.body).toEqual({ phone_number: '9812345678', otp: '123456', purpose: 'login' })
  })

  it("says that an admin's phone signs in with the password, not a code", async () => {
    routes = {
      '/api/users/otp/send/': () => ({
        status: 200,
        body: { detail: 'OTP sent to your phone.', expires_in: 300, resend_in: 60 },
      }),
      '/api/users/otp/verify/': () => ({
        status: 403,
        body: { detail: 'Administrators sign in with their username and password.', code: 'permission_denied' },
      }),
    }
    renderWithProviders(<LoginPage />, { route: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Phone OTP' }))
    await userEvent.type(screen.getByLabelText('Phone Number'), '9812345678')
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await waitFor(() => expect(screen.getByLabelText('OTP')).toHaveFocus())
    await userEvent.type(screen.getByLabelText('OTP'), '123456')
    await userEvent.click(screen.getByRole('button', { name: 'Verify & Login' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Administrators sign in with their username and password, not with a code.',
    )
  })

  it('says when a login OTP cannot be sent', async () => {
    routes = { '/api/users/otp/send/': () => ({ status: 404, body: { detail: 'No account.', code: 'not_found' } }) }
    renderWithProviders(<LoginPage />, { route: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Phone OTP' }))
    await userEvent.type(screen.getByLabelText('Phone Number'), '9812345678')
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to send OTP. Is this phone number registered?')
  })

  it('checks the phone has 10 digits before sending', async () => {
    routes = {}
    renderWithProviders(<LoginPage />, { route: '/login' })
    await userEvent.click(screen.getByRole('button', { name: 'Phone OTP' }))
    await userEvent.type(screen.getByLabelText('Phone Number'), '98123')
    await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    // The form validates asynchronously: wait for the message rather than reading it at once.
    expect(await screen.findByText('Please enter a valid 10-digit phone number.')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
  })

  describe('signing in', () => {
    const access = `e30.${btoa(JSON.stringify({ username: 'sita', exp: Math.floor(Date.now() / 1000) + 900 })).replace(/=+$/, '')}.sig`
    const profile = { username: 'sita', phone_number: '9812345678', full_name: '', email: '', profile_picture: null }

    function renderLogin(state: unknown, language: 'en' | 'ne') {
      void i18n.changeLanguage(language)
      const router = createMemoryRouter(
        [
          { path: '/login', element: <LoginPage /> },
          { path: '/', element: <h1>dashboard</h1> },
        ],
        { initialEntries: [{ pathname: '/login', state }] },
      )
      render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <RouterProvider router={router} />
        </QueryClientProvider>,
      )
      return router
    }

    async function logIn() {
      await userEvent.type(screen.getByLabelText(/^(Username|प्रयोगकर्ता नाम)$/), 'sita')
      await userEvent.type(screen.getByLabelText(/^(Password|पासवर्ड)$/), 'Lantern-Harbor-4821')
      await userEvent.click(screen.getByRole('button', { name: /^(Login|लगइन गर्नुहोस्)$/ }))
    }

    it('applies the preferred language of the profile, stores the tokens and goes to /', async () => {
      routes = {
        '/api/token/': () => ({ status: 200, body: { access, refresh: 'r1' } }),
        'GET /api/users/profile/': () => ({ status: 200, body: { ...profile, preferred_language: 'ne' } }),
      }
      const router = renderLogin(null, 'en')
      await logIn()
      await waitFor(() => expect(router.state.location.pathname).toBe('/'))
      expect(i18n.language).toBe('ne')
      expect(sessionStore.accessToken()).toBe(access)
      expect(sessionStore.refreshToken()).toBe('r1')
      expect(calls.map((call) => call.url)).toEqual(['/api/token/', '/api/users/profile/'])
    })

    it('keeps the language the visitor chose before logging in, and saves it to the profile', async () => {
      routes = {
        '/api/token/': () => ({ status: 200, body: { access, refresh: 'r1' } }),
        'GET /api/users/profile/': () => ({ status: 200, body: { ...profile, preferred_language: 'en' } }),
        'PUT /api/users/profile/': (body) => ({
          status: 200,
          body: { ...profile, preferred_language: body.preferred_language },
        }),
      }
      localStorage.setItem(LANGUAGE_KEY, 'ne')
      const router = renderLogin(null, 'ne')
      await logIn()
      await waitFor(() => expect(router.state.location.pathname).toBe('/'))
      expect(calls.at(-1)).toEqual({ url: '/api/users/profile/', body: { preferred_language: 'ne' } })
      expect(i18n.language).toBe('ne')
    })

    it('by code: takes a phone typed in Devanagari digits and keeps the language chosen before logging in', async () => {
      routes = {
        '/api/users/otp/send/': () => ({
          status: 200,
          body: { detail: 'OTP sent to your phone.', expires_in: 300, resend_in: 60 },
        }),
        '/api/users/otp/verify/': () => ({ status: 200, body: { access, refresh: 'r1' } }),
        'GET /api/users/profile/': () => ({ status: 200, body: { ...profile, preferred_language: 'ne' } }),
        'PUT /api/users/profile/': (body) => ({
          status: 200,
          body: { ...profile, preferred_language: body.preferred_language },
        }),
      }
      localStorage.setItem(LANGUAGE_KEY, 'en')
      const router = renderLogin(null, 'en')
      await userEvent.click(await screen.findByRole('button', { name: 'Phone OTP' }))
      await userEvent.type(screen.getByLabelText('Phone Number'), '९८१२३४५६७८')
      expect(screen.getByLabelText('Phone Number')).toHaveValue('9812345678')
      await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
      await userEvent.type(await screen.findByLabelText('OTP'), '१२३४५६')
      await userEvent.click(screen.getByRole('button', { name: 'Verify & Login' }))
      await waitFor(() => expect(router.state.location.pathname).toBe('/'))
      expect(calls[0]!.body).toMatchObject({ phone_number: '9812345678' })
      expect(calls[1]!.body).toEqual({ phone_number: '9812345678', otp: '123456', purpose: 'login' })
      expect(calls.at(-1)).toEqual({ url: '/api/users/profile/', body: { preferred_language: 'en' } })
      expect(i18n.language).toBe('en')
    })

    it('shows the registration success message, and keeps the language the learner registered in', async () => {
      routes = {
        '/api/token/': () => ({ status: 200, body: { access, refresh: 'r1' } }),
        'GET /api/users/profile/': () => ({ status: 200, body: { ...profile, preferred_language: 'en' } }),
        'PUT /api/users/profile/': (body) => ({
          status: 200,
          body: { ...profile, preferred_language: body.preferred_language },
        }),
      }
      const router = renderLogin({ notice: 'registered' }, 'ne')
      expect(screen.getByRole('status')).toHaveTextContent('दर्ता सफल भयो! कृपया लगइन गर्नुहोस्।')
      await logIn()
      await waitFor(() => expect(router.state.location.pathname).toBe('/'))
      expect(calls.at(-1)).toEqual({ url: '/api/users/profile/', body: { preferred_language: 'ne' } })
      expect(i18n.language).toBe('ne')
    })

    it('still signs in when the profile cannot be read', async () => {
      routes = { '/api/token/': () => ({ status: 200, body: { access, refresh: 'r1' } }) }
      const router = renderLogin({ notice: 'password_reset' }, 'en')
      expect(screen.getByRole('status')).toHaveTextContent('Password reset successfully! Please log in.')
      await logIn()
      await waitFor(() => expect(router.state.location.pathname).toBe('/'))
      expect(i18n.language).toBe('en')
      expect(sessionStore.accessToken()).toBe(access)
    })

    // WEB.md "Institutes": an account with no membership here is told so, and joins with one tap where it may.
    const notAMember = (canJoin: boolean) => ({
      status: 403,
      body: { detail: 'This account is not a member of this institute.', code: 'not_a_member', can_join: canJoin },
    })

    it('offers to join an open institute with the same password, and signs in on joining', async () => {
      routes = {
        '/api/token/': () => notAMember(true),
        '/api/institute/join/': () => ({ status: 201, body: { access, refresh: 'r1' } }),
        'GET /api/users/profile/': () => ({ status: 200, body: { ...profile, preferred_language: 'en' } }),
      }
      const router = renderLogin(null, 'en')
      await logIn()
      expect(await screen.findByText('Your account is not a member of Quiz Practice.')).toBeInTheDocument()
      expect(screen.queryByText('Login failed. Please check your credentials.')).not.toBeInTheDocument()
      await userEvent.click(screen.getByRole('button', { name: 'Join Quiz Practice' }))
      await waitFor(() => expect(router.state.location.pathname).toBe('/'))
      expect(calls.find((call) => call.url === '/api/institute/join/')!.body).toEqual({
        username: 'sita',
        password: 'Lantern-Harbor-4821',
      })
      expect(sessionStore.accessToken()).toBe(access)
    })

    it('says to ask a closed institute for an invitation, in Nepali too', async () => {
      routes = { '/api/token/': () => notAMember(false) }
      renderLogin(null, 'ne')
      await logIn()
      expect(await screen.findByText('तपाईंको खाता क्विज अभ्यासको सदस्य होइन।')).toBeInTheDocument()
      expect(screen.getByText(/क्विज अभ्याससँग निमन्त्रणा माग्नुहोस्/)).toBeInTheDocument()
      expect(screen.queryByRole('button', { name: /सामेल/ })).not.toBeInTheDocument()
    })

    it('joins with the same code after a login by code is refused, and says when registration has closed', async () => {
      routes = {
        '/api/users/otp/send/': () => ({
          status: 200,
          body: { detail: 'OTP sent to your phone.', expires_in: 300, resend_in: 60 },
        }),
        '/api/users/otp/verify/': () => notAMember(true),
        '/api/institute/join/': () => ({
          status: 403,
          body: { detail: 'Registration is closed.', code: 'registration_closed' },
        }),
      }
      renderLogin(null, 'en')
      await userEvent.click(screen.getByRole('button', { name: 'Phone OTP' }))
      await userEvent.type(await screen.findByLabelText('Phone Number'), '9812345678')
      await userEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
      await waitFor(() => expect(screen.getByLabelText('OTP')).toHaveFocus())
      await userEvent.type(screen.getByLabelText('OTP'), '123456')
      await userEvent.click(screen.getByRole('button', { name: 'Verify & Login' }))
      await userEvent.click(await screen.findByRole('button', { name: 'Join Quiz Practice' }))
      expect(await screen.findByRole('alert')).toHaveTextContent('Quiz Practice is not taking new learners.')
      expect(calls.find((call) => call.url === '/api/institute/join/')!.body).toEqual({
        phone_number: '9812345678',
        otp: '123456',
      })
      expect(screen.queryByRole('button', { name: 'Join Quiz Practice' })).not.toBeInTheDocument()
    })
  })
})
