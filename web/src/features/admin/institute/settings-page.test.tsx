import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as SettingsPage } from './settings-page'

configure({ asyncUtilTimeout: 4000 })

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  answerFetch((key, body) => handler(key, body), sent)
})
afterEach(() => vi.unstubAllGlobals())

const stored = {
  name: { en: 'Pathshala', ne: 'पाठशाला' },
  logo: null,
  colour: '#1f6feb',
  sms_sender: null,
  open_registration: true,
  khalti: { public_key: 'live_public_abc', secret_key: 'set' },
  esewa: null,
}
const put = () => sent.find((request) => request.key === 'PUT /api/admin/institute/settings/')

// WEB.md "Institutes": Institute settings.
describe('institute settings', () => {
  it('saves the name, colour and sender, and keeps a secret that was not retyped', async () => {
    handler = (key, body) =>
      key === 'PUT /api/admin/institute/settings/'
        ? { status: 200, body: { ...stored, ...(body as object) } }
        : { status: 200, body: stored }
    renderWithProviders(<SettingsPage />)
    const english = await screen.findByLabelText('Name (English)')
    expect(english).toHaveValue('Pathshala')
    expect(screen.getByText('Set. Leave empty to keep it, or type a new one to replace it.')).toBeInTheDocument()
    await userEvent.clear(english)
    await userEvent.type(english, 'Pathshala Loksewa')
    await userEvent.type(screen.getByLabelText('SMS sender'), 'Pathshala')
    await userEvent.click(screen.getByLabelText('Anyone may register and join (open registration)'))
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(put()).toBeDefined())
    expect(put()!.body).toEqual({
      name: { en: 'Pathshala Loksewa', ne: 'पाठशाला' },
      colour: '#1f6feb',
      sms_sender: 'Pathshala',
      open_registration: false,
    })
    expect(await screen.findByText('Settings saved.')).toBeInTheDocument()
  })

  it('previews the header in the colour chosen, with text that stays readable', async () => {
    handler = () => ({ status: 200, body: { ...stored, colour: '#facc15' } })
    renderWithProviders(<SettingsPage />)
    const preview = (await screen.findByText('Preview of the header')).closest('figure')!
    const header = within(preview).getByText('Pathshala')
    expect(header).toHaveStyle({ background: '#facc15', color: '#111827' })
  })

  it('replaces and removes payment keys, and shows refusals at their fields', async () => {
    handler = (key) =>
      key === 'PUT /api/admin/institute/settings/'
        ? {
            status: 400,
            body: {
              detail: 'x',
              code: 'validation_error',
              errors: { sms_sender: ['An SMS sender is 3 to 11 letters and digits.'] },
            },
          }
        : { status: 200, body: stored }
    renderWithProviders(<SettingsPage />)
    const secrets = await screen.findAllByLabelText('Secret key')
    await userEvent.type(screen.getByLabelText('Merchant code'), 'EPAYTEST')
    await userEvent.type(secrets[1]!, 'esewa-secret')
    await userEvent.click(screen.getByLabelText('Remove these keys (payments with Khalti stop)'))
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() => expect(put()).toBeDefined())
    expect(put()!.body).toMatchObject({
      khalti: null,
      esewa: { merchant_code: 'EPAYTEST', secret_key: 'esewa-secret' },
    })
    expect(await screen.findByText('An SMS sender is 3 to 11 letters and digits.')).toBeInTheDocument()
    expect(screen.getByText('The settings were not saved. Check the fields marked below.')).toBeInTheDocument()
  })

  it('speaks Nepali', async () => {
    handler = () => ({ status: 200, body: stored })
    renderWithProviders(<SettingsPage />, { language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'संस्थाका सेटिङहरू' })).toBeInTheDocument()
    expect(await screen.findByLabelText('नाम (अङ्ग्रेजी)')).toHaveValue('Pathshala')
    expect(screen.getByRole('group', { name: 'खल्ती' })).toBeInTheDocument()
  })
})
