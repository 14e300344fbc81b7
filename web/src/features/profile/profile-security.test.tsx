import type { LoginSession } from '@quiz/contracts'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes, type FakeResponse } from '../../test/page-test-utils'
import { Component as ProfilePage } from './profile-page'

vi.setConfig({ testTimeout: 20_000 })

const profile = {
  username: 'sita',
  phone_number: '9841000001',
  full_name: 'Sita Rai',
  email: '',
  preferred_language: 'en',
  profile_picture: null,
  sms_reminders: false,
  show_on_leaderboards: true,
}
const phone: LoginSession = {
  id: '11111111-1111-4111-8111-111111111111',
  device: 'Chrome on Android',
  client_address: '203.0.113.7',
  created_at: '2026-11-20T07:00:00.000Z',
  last_used_at: '2026-11-22T07:00:00.000Z',
  current: true,
}
const laptop: LoginSession = {
  ...phone,
  id: '22222222-2222-4222-8222-222222222222',
  device: 'Firefox on Windows',
  client_address: '192.0.2.44',
  current: false,
}
const old: LoginSession = { ...laptop, id: '33333333-3333-4333-8333-333333333333', device: '', client_address: '' }

function renderProfile({
  sessions = [phone, laptop, old],
  password = () => ({ body: { detail: 'ok' } }),
  language = 'en',
}: {
  sessions?: LoginSession[]
  password?: () => FakeResponse
  language?: 'en' | 'ne'
} = {}) {
  let live = sessions
  const network = fakeNetwork({
    'GET /api/users/profile/': () => ({ body: profile }),
    'GET /api/auth/sessions/': () => ({ body: live }),
    [`DELETE /api/auth/sessions/${laptop.id}/`]: () => {
      live = live.filter((s) => s.id !== laptop.id)
      return { status: 204 }
    },
    'POST /api/auth/sessions/revoke-others/': () => {
      const revoked = live.filter((s) => !s.current).length
      live = live.filter((s) => s.current)
      return { body: { revoked } }
    },
    'POST /api/users/password/': password,
  })
  renderRoutes([page(ProfilePage, '/profile')], { path: '/profile', language })
  return network
}

afterEach(() => vi.unstubAllGlobals())

describe('active logins', () => {
  it('lists each login with device, address and last use, marks this device, and logs one out', async () => {
    const network = renderProfile()
    const section = await screen.findByRole('region', { name: 'Active logins' })
    const items = await within(section).findAllByRole('listitem')
    expect(items).toHaveLength(3)
    expect(items[0]).toHaveTextContent('Chrome on AndroidThis device203.0.113.7Last used 22 Nov 2026')
    expect(within(items[0]!).queryByRole('button')).toBeNull()
    expect(items[2]).toHaveTextContent('Unknown deviceaddress not recorded')
    expect(section).toHaveTextContent('up to 15 minutes')

    await userEvent.click(within(section).getByRole('button', { name: 'Log out Firefox on Windows' }))
    expect(await within(section).findByText('That device has been logged out.')).toBeInTheDocument()
    expect(network.callsTo('DELETE', `/api/auth/sessions/${laptop.id}/`)).toHaveLength(1)
    await vi.waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(2))
  })

  it('logs out every other device at once', async () => {
    const network = renderProfile()
    const section = await screen.findByRole('region', { name: 'Active logins' })
    await within(section).findAllByRole('listitem')
    await userEvent.click(within(section).getByRole('button', { name: 'Log out of all other devices' }))
    expect(await within(section).findByText('All other devices have been logged out.')).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/auth/sessions/revoke-others/')).toHaveLength(1)
    expect(await within(section).findByText('You are not logged in anywhere else.')).toBeInTheDocument()
    expect(within(section).getAllByRole('listitem')).toHaveLength(1)
  })

  it('speaks Nepali with Bikram Sambat dates', async () => {
    renderProfile({ language: 'ne' })
    const section = await screen.findByRole('region', { name: 'सक्रिय लगइनहरू' })
    const items = await within(section).findAllByRole('listitem')
    expect(items[0]).toHaveTextContent('यो उपकरण')
    expect(items[0]).toHaveTextContent('अन्तिम प्रयोग २०८३ मंसिर ६, १२:४५')
    expect(items[0]).toHaveTextContent('२०३.०.११३.७')
  })
})

describe('change password', () => {
  async function fill(current: string, password: string, password2: string) {
    const user = userEvent.setup({ delay: null })
    const form = await screen.findByRole('form', { name: 'Change password' })
    if (current) await user.type(within(form).getByLabelText('Current password'), current)
    if (password) await user.type(within(form).getByLabelText('New password'), password)
    if (password2) await user.type(within(form).getByLabelText('Confirm new password'), password2)
    await user.click(within(form).getByRole('button', { name: 'Change password' }))
    return form
  }

  it('checks the form before sending: a mismatch and a short password are refused on their fields', async () => {
    const network = renderProfile()
    const form = await fill('', 'short', 'other')
    expect(
      await within(form).findByText('This password is too short. It must contain at least 8 characters.'),
    ).toBeInTheDocument()
    expect(within(form).getByText('Passwords do not match.')).toBeInTheDocument()
    expect(within(form).getByText('This field is required.')).toBeInTheDocument()
    expect(within(form).getByRole('alert')).toHaveTextContent('Failed to change the password.')
    expect(network.callsTo('POST', '/api/users/password/')).toEqual([])
  })

  it('shows the server refusing the current password on its field', async () => {
    renderProfile({
      password: () => ({
        status: 400,
        body: {
          detail: 'Some fields are invalid.',
          code: 'validation_error',
          errors: { current_password: ['Your current password is not correct.'] },
        },
      }),
    })
    const form = await fill('wrong-one', 'Naya-Sabda-2026', 'Naya-Sabda-2026')
    const current = within(form).getByLabelText('Current password')
    expect(await within(form).findByText('Your current password is not correct.')).toBeInTheDocument()
    expect(current).toHaveAttribute('aria-invalid', 'true')
  })

  it('says when too many wrong passwords locked the account for a while', async () => {
    renderProfile({ password: () => ({ status: 429, body: { detail: 'Too many', code: 'rate_limited' } }) })
    const form = await fill('wrong-one', 'Naya-Sabda-2026', 'Naya-Sabda-2026')
    expect(await within(form).findByText('Too many wrong passwords. Please try again later.')).toBeInTheDocument()
  })

  it('changes it, says the other logins were logged out, clears the fields and reloads the logins', async () => {
    const network = renderProfile()
    const form = await fill('Correct-Horse-42', 'Naya-Sabda-2026', 'Naya-Sabda-2026')
    expect(
      await within(form).findByText('Your password has been changed. Your other logins have been logged out.'),
    ).toBeInTheDocument()
    expect(network.callsTo('POST', '/api/users/password/')[0]!.body).toEqual({
      current_password: 'Correct-Horse-42',
      password: 'Naya-Sabda-2026',
      password2: 'Naya-Sabda-2026',
    })
    expect(within(form).getByLabelText('Current password')).toHaveValue('')
    await vi.waitFor(() => expect(network.callsTo('GET', '/api/auth/sessions/').length).toBeGreaterThan(1))
  })
})
