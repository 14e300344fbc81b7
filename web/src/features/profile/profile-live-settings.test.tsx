import type { Profile } from '@quiz/contracts'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeNetwork, page, renderRoutes } from '../../test/page-test-utils'
import { Component as ProfilePage } from './profile-page'

vi.setConfig({ testTimeout: 20_000 })

const profile: Profile = {
  username: 'sita',
  phone_number: '9841000001',
  full_name: 'Sita Rai',
  email: '',
  preferred_language: 'en',
  profile_picture: null,
  sms_reminders: false,
  show_on_leaderboards: true,
  daily_reminder: null,
  screen_reader: false,
}

function renderProfile(language: 'en' | 'ne' = 'en') {
  let saved = profile
  const network = fakeNetwork({
    'GET /api/users/profile/': () => ({ body: saved }),
    'GET /api/auth/sessions/': () => ({ body: [] }),
    'PUT /api/users/profile/': ({ body }) => {
      const fields = body as Record<string, string>
      saved = {
        ...saved,
        sms_reminders: fields.sms_reminders === 'true',
        show_on_leaderboards: fields.show_on_leaderboards === 'true',
        screen_reader: fields.screen_reader === 'true',
      }
      return { body: saved }
    },
  })
  renderRoutes([page(ProfilePage, '/profile')], { path: '/profile', language })
  return network
}

afterEach(() => vi.unstubAllGlobals())

describe("the profile's live-mock settings", () => {
  it('saves "I use a screen reader", described by what it changes', async () => {
    const network = renderProfile()
    const reader = await screen.findByRole('checkbox', { name: 'I use a screen reader' })
    expect(reader).not.toBeChecked()
    expect(reader).toHaveAccessibleDescription(/leave out questions that cannot be answered without seeing a picture/)
    await userEvent.click(reader)
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument()
    expect(network.callsTo('PUT', '/api/users/profile/')[0]!.body).toMatchObject({ screen_reader: 'true' })
  })

  it('shows the stored switches and saves them as true/false fields of the multipart form', async () => {
    const network = renderProfile()
    const sms = await screen.findByRole('checkbox', { name: 'SMS reminders for live mocks' })
    const name = screen.getByRole('checkbox', { name: 'Show my name on leaderboards' })
    expect(sms).not.toBeChecked()
    expect(name).toBeChecked()
    expect(name).toHaveAccessibleDescription('When off, leaderboards show you as "Learner".')

    await userEvent.click(sms)
    await userEvent.click(name)
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument()
    expect(network.callsTo('PUT', '/api/users/profile/')[0]!.body).toMatchObject({
      full_name: 'Sita Rai',
      sms_reminders: 'true',
      show_on_leaderboards: 'false',
    })
    expect(sms).toBeChecked()
    expect(name).not.toBeChecked()
  })

  it('speaks Nepali', async () => {
    renderProfile('ne')
    expect(await screen.findByRole('checkbox', { name: 'लाइभ मकको सम्झना SMS बाट पनि' })).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'अग्रता सूचीमा मेरो नाम देखाउनुहोस्' })).toBeChecked()
    expect(screen.getByRole('group', { name: 'लाइभ मक' })).toBeInTheDocument()
  })
})
