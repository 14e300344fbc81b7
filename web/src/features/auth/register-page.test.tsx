import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse as reply } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { registerForm } from './auth-resolvers'
import { Component as RegisterPage } from './register-page'

/** What the fake server knows: taken usernames (any case) and registered phones. */
const takenUsernames = new Set(['ram'])
const registeredPhones = new Set(['9800000001'])
let calls: { url: string; body: Record<string, unknown> }[]

beforeEach(() => {
  calls = []
  vi.useFakeTimers()
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const body = JSON.parse(String(init.body ?? '{}')) as Record<string, unknown>
      calls.push({ url, body })
      switch (url) {
        case '/api/users/check-username/':
          return reply(200, { exists: takenUsernames.has(String(body.username).toLowerCase()) })
        case '/api/users/check-phone/':
          return reply(200, { exists: registeredPhones.has(String(body.phone_number)) })
        case '/api/users/otp/send/':
          return body.phone_number === '9811111111'
            ? reply(502, { detail: 'We could not send the SMS right now.', code: 'sms_failed' })
            : reply(200, { detail: 'OTP sent to your phone.', expires_in: 300, resend_in: 60 })
        default:
          return reply(404, { detail: 'Not found.', code: 'not_found' })
      }
    }),
  )
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

/**
 * Moves the fake clock, then lets what that started settle without moving it further. React renders at the
 * end of each act (a render may start a query), the fake server answers with promises, and TanStack Query
 * hands results to React on a zero-delay timer: a few rounds cover the chain.
 */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms))
  for (let round = 0; round < 4; round += 1) await act(() => vi.advanceTimersByTimeAsync(0))
}

const checks = (path: string) => calls.filter((call) => call.url === path)
const type = (label: string | RegExp, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } })

function fillValidDetails() {
  type('Username', 'sita')
  type('Phone Number', '9812345678')
  type('Password', 'kathmandu-2026')
  type('Confirm Password', 'kathmandu-2026')
}

// The form's schema chunk starts loading with the auth screens' code (auth-resolvers.ts); here, before the first test.
beforeAll(async () => {
  await registerForm.preload()
})

describe('register page, step 1', () => {
  it('checks the username once, 500 ms after typing stops', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    for (const value of ['rama', 'ramay', 'ram']) {
      type('Username', value)
      await advance(200)
    }
    expect(checks('/api/users/check-username/')).toHaveLength(0)
    await advance(299)
    expect(checks('/api/users/check-username/')).toHaveLength(0)
    await advance(1)
    expect(checks('/api/users/check-username/')).toEqual([
      { url: '/api/users/check-username/', body: { username: 'ram' } },
    ])
    expect(screen.getByText('Username is already taken.')).toBeInTheDocument()
    expect(screen.getByLabelText('Username')).toHaveAttribute('aria-invalid', 'true')
  })

  it('says when a username is available, and forgets the old answer as soon as the name changes', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    type('Username', 'ram')
    await advance(500)
    expect(screen.getByText('Username is already taken.')).toBeInTheDocument()
    type('Username', 'ramesh')
    expect(screen.queryByText('Username is already taken.')).not.toBeInTheDocument()
    await advance(500)
    expect(screen.getByText('Username is available!')).toBeInTheDocument()
  })

  it('asks for 10 digits before checking a phone number', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    type('Phone Number', '98123')
    await advance(500)
    expect(screen.getByText('Please enter a valid 10-digit phone number.')).toBeInTheDocument()
    expect(checks('/api/users/check-phone/')).toHaveLength(0)

    type('Phone Number', '9800000001')
    await advance(500)
    expect(checks('/api/users/check-phone/')).toHaveLength(1)
    expect(screen.getByText('Phone number is already registered.')).toBeInTheDocument()

    type('Phone Number', '9812345678')
    await advance(500)
    expect(screen.getByText('Phone number is available!')).toBeInTheDocument()
  })

  it('keeps letters out of the phone field', () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    type('Phone Number', '98-12 abc 345')
    expect(screen.getByLabelText('Phone Number')).toHaveValue('9812345')
  })

  it('takes the digits a Nepali keyboard types as the same digits', () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    type('Phone Number', '९८४१२३४५६७')
    expect(screen.getByLabelText('Phone Number')).toHaveValue('9841234567')
  })

  it('blocks sending the code when the passwords differ', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fillValidDetails()
    type('Confirm Password', 'kathmandu-2027')
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(screen.getByRole('alert')).toHaveTextContent('Please fix the errors before proceeding.')
    expect(checks('/api/users/otp/send/')).toHaveLength(0)
    expect(screen.getByLabelText('Confirm Password')).toHaveFocus()

    type('Confirm Password', 'kathmandu-2026')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.queryByText('Passwords do not match.')).not.toBeInTheDocument()
  })

  it('blocks a taken username even when submitted before the debounced check ran', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fillValidDetails()
    type('Username', 'RAM')
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(screen.getByRole('alert')).toHaveTextContent('Please fix the errors before proceeding.')
    expect(screen.getByText('Username is already taken.')).toBeInTheDocument()
    expect(checks('/api/users/otp/send/')).toHaveLength(0)
  })

  it('blocks a registered phone number', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fillValidDetails()
    type('Phone Number', '9800000001')
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(screen.getByRole('alert')).toHaveTextContent('Please fix the errors before proceeding.')
    expect(checks('/api/users/otp/send/')).toHaveLength(0)
  })

  it('requires every field', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(screen.getAllByText('This field is required.')).toHaveLength(4)
    expect(screen.getByLabelText('Username')).toHaveFocus()
    expect(calls).toHaveLength(0)
  })

  it('refuses a short or all-digit password before any code is spent', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fillValidDetails()
    type('Password', '12345678')
    type('Confirm Password', '12345678')
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(screen.getByText('This password is entirely numeric.')).toBeInTheDocument()
    expect(checks('/api/users/otp/send/')).toHaveLength(0)
  })

  it('sends a registration OTP and moves to step 2 with the 6-digit field and a 60 s resend wait', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fillValidDetails()
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(checks('/api/users/otp/send/')).toEqual([
      { url: '/api/users/otp/send/', body: { phone_number: '9812345678', purpose: 'register', language: 'en' } },
    ])
    expect(screen.getByRole('status')).toHaveTextContent('OTP sent to your phone.')
    const otp = screen.getByLabelText('OTP')
    expect(otp).toHaveAttribute('placeholder', '6-digit OTP')
    expect(otp).toHaveFocus()
    expect(screen.getByText('You can ask for a new code in 60 s.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Resend OTP' })).not.toBeInTheDocument()
    await advance(60_000)
    expect(screen.getByRole('button', { name: 'Resend OTP' })).toBeInTheDocument()
  })

  it('shows the registration send failure of SPEC.md', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register' })
    fillValidDetails()
    type('Phone Number', '9811111111')
    fireEvent.click(screen.getByRole('button', { name: 'Send OTP' }))
    await advance(0)
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to send OTP. Please try again.')
    expect(screen.queryByLabelText('OTP')).not.toBeInTheDocument()
  })

  it('speaks Nepali', async () => {
    renderWithProviders(<RegisterPage />, { route: '/register', language: 'ne' })
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('खाता बनाउनुहोस्')
    fireEvent.input(screen.getByLabelText('प्रयोगकर्ता नाम'), { target: { value: 'ram' } })
    await advance(500)
    expect(screen.getByText('यो प्रयोगकर्ता नाम पहिले नै लिइसकिएको छ।')).toBeInTheDocument()
  })
})
