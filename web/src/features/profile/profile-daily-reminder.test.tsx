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

function renderProfile(
  stored: Partial<Profile> = {},
  language: 'en' | 'ne' = 'en',
  refuse?: { status: number; body: unknown },
) {
  let saved = { ...profile, ...stored }
  const network = fakeNetwork({
    'GET /api/users/profile/': () => ({ body: saved }),
    'GET /api/auth/sessions/': () => ({ body: [] }),
    'PUT /api/users/profile/': ({ body }) => {
      if (refuse) return refuse
      const reminder = (body as Record<string, string>).daily_reminder
      saved = { ...saved, daily_reminder: reminder ? reminder : null }
      return { body: saved }
    },
  })
  renderRoutes([page(ProfilePage, '/profile')], { path: '/profile', language })
  return network
}

afterEach(() => vi.unstubAllGlobals())

describe('"Remind me each day at"', () => {
  it('is off by default, and turned on sends the chosen time', async () => {
    const network = renderProfile()
    const on = await screen.findByRole('checkbox', { name: 'Remind me each day' })
    expect(on).not.toBeChecked()
    expect(screen.queryByLabelText('Remind me each day at')).not.toBeInTheDocument()
    await userEvent.click(on)
    const time = screen.getByLabelText('Remind me each day at')
    expect(time).toHaveValue('06:00')
    expect(time).toHaveAccessibleDescription(/Nepal time/)
    await userEvent.clear(time)
    await userEvent.type(time, '05:30')
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument()
    expect(network.callsTo('PUT', '/api/users/profile/')[0]!.body).toMatchObject({ daily_reminder: '05:30' })
  })

  it('shows the stored time, and turned off sends no time', async () => {
    const network = renderProfile({ daily_reminder: '07:15' })
    expect(await screen.findByLabelText('Remind me each day at')).toHaveValue('07:15')
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remind me each day' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument()
    expect(network.callsTo('PUT', '/api/users/profile/')[0]!.body).toMatchObject({ daily_reminder: '' })
  })

  it("shows the server's refusal at the field, in the learner's words", async () => {
    renderProfile({ daily_reminder: '07:15' }, 'en', {
      status: 400,
      body: {
        detail: 'Some fields are invalid.',
        code: 'validation_error',
        errors: { daily_reminder: ['Send a time as HH:MM, or nothing for no reminder.'] },
      },
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Save Changes' }))
    expect(await screen.findByLabelText('Remind me each day at')).toHaveAccessibleDescription(
      /Enter a time such as 06:30, or turn the reminder off./,
    )
  })

  it('speaks Nepali', async () => {
    renderProfile({ daily_reminder: '07:15' }, 'ne')
    expect(await screen.findByRole('checkbox', { name: 'मलाई हरेक दिन सम्झाउनुहोस्' })).toBeChecked()
    expect(screen.getByLabelText('हरेक दिन यति बजे सम्झाउनुहोस्')).toHaveValue('07:15')
  })
})
