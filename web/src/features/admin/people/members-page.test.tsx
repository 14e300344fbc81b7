import { configure, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import i18n, { initI18n } from '../../../i18n/i18n'
import { answerFetch, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as MembersPage } from './members-page'
import { readPhoneList } from './phone-list'

// A table of checkboxes in two languages; on a busy 2-core machine a test can pass 5 s.
vi.setConfig({ testTimeout: 20_000 })
configure({ asyncUtilTimeout: 4000 })

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
beforeAll(() => {
  // jsdom has no showModal(): open the dialog the way a browser would, so its contents are in the a11y tree.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '')
  }
  if (!i18n.isInitialized) initI18n('en')
})
beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  answerFetch((key, body) => handler(key, body), sent)
})
afterEach(() => vi.unstubAllGlobals())

const ram = {
  id: 5,
  username: 'ram',
  full_name: 'Ram Thapa',
  phone_number: '9812345678',
  roles: ['learner'],
  joined_at: '2026-11-01T00:00:00.000Z',
}
const sita = { ...ram, id: 6, username: 'sita', full_name: 'Sita Rai', phone_number: '9812345679', roles: ['admin'] }
const list = (results: object[]) => ({ status: 200, body: { count: results.length, results } })
const keys = () => sent.map((s) => s.key)
const listing = (query: string) => `GET /api/admin/members/?${query}`

describe('readPhoneList', () => {
  it('reads one a line, or several by commas and spaces, Devanagari digits and +977 included, each once', () => {
    expect(readPhoneList('9841000001\n९८४१०००००२, 9841000003 9841000004\n\n+977 984-1000005;9841000001')).toEqual({
      phones: [
        { phone: '9841000001', line: 1 },
        { phone: '9841000002', line: 2 },
        { phone: '9841000003', line: 2 },
        { phone: '9841000004', line: 2 },
        { phone: '9841000005', line: 4 },
      ],
      malformed: [],
    })
  })

  it('names each piece that is not a phone number with its line', () => {
    expect(readPhoneList('9841000001\n9841000002\n98123, 9841000003 abc').malformed).toEqual([
      { line: 3, text: '98123' },
      { line: 3, text: 'abc' },
    ])
  })
})

describe('members page', () => {
  it('lists the members with their roles, searches (Devanagari digits as Latin) and filters by role', async () => {
    handler = (key) => (key.includes('role=admin') ? list([sita]) : list([ram, sita]))
    renderWithProviders(<MembersPage />)
    expect(await screen.findByRole('heading', { name: 'Members', level: 1 })).toBeInTheDocument()
    const table = await screen.findByRole('table')
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Username', 'Name', 'Phone', 'Member since', 'Roles', 'End membership'])
    const row = screen.getByRole('row', { name: /ram/ })
    const roles = within(row).getByRole('group', { name: 'Roles of ram' })
    expect(within(roles).getByRole('checkbox', { name: 'Learner' })).toBeChecked()
    expect(within(roles).getByRole('checkbox', { name: 'Admin' })).not.toBeChecked()
    expect(within(roles).getByRole('checkbox', { name: 'Marker' })).not.toBeChecked()
    expect(screen.getByText('Members: 2')).toBeInTheDocument()
    expect(keys()).toContain(listing('search=&page=1&page_size=50'))

    await userEvent.type(screen.getByLabelText('Search by username, name or phone'), '९८१२३')
    await userEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(keys()).toContain(listing('search=98123&page=1&page_size=50')))

    await userEvent.selectOptions(screen.getByLabelText('Role'), 'admin')
    await waitFor(() => expect(keys()).toContain(listing('search=98123&role=admin&page=1&page_size=50')))
    await waitFor(() => expect(screen.queryByRole('row', { name: /ram/ })).not.toBeInTheDocument())
  })

  it("saves a member's roles with PATCH, and keeps at least one", async () => {
    handler = (key, body) =>
      key.startsWith('PATCH') ? { status: 200, body: { ...ram, ...(body as object) } } : list([ram])
    renderWithProviders(<MembersPage />)
    const roles = await screen.findByRole('group', { name: 'Roles of ram' })
    const save = within(roles).getByRole('button', { name: 'Save roles: ram' })
    expect(save).toBeDisabled()
    await userEvent.click(within(roles).getByRole('checkbox', { name: 'Learner' }))
    expect(save).toBeDisabled()
    expect(within(roles).getByText(/A member keeps at least one role/)).toBeInTheDocument()
    await userEvent.click(within(roles).getByRole('checkbox', { name: 'Marker' }))
    await userEvent.click(within(roles).getByRole('checkbox', { name: 'Admin' }))
    expect(save).toBeEnabled()
    await userEvent.click(save)
    await waitFor(() => expect(keys()).toContain('PATCH /api/admin/members/5/'))
    expect(sent.find((s) => s.key === 'PATCH /api/admin/members/5/')!.body).toEqual({ roles: ['admin', 'marker'] })
    expect(await screen.findByText('Saved the roles of ram.')).toBeInTheDocument()
  })

  it('ends a membership only after the confirmation', async () => {
    let ended = false
    handler = (key) => {
      if (key === 'DELETE /api/admin/members/5/') {
        ended = true
        return { status: 204, body: undefined }
      }
      return list(ended ? [sita] : [ram, sita])
    }
    renderWithProviders(<MembersPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'End membership: ram' }))
    const dialog = screen.getByRole('dialog', { name: 'End this membership?' })
    expect(within(dialog).getByText(/ram will no longer be able to sign in here/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(keys().some((key) => key.startsWith('DELETE'))).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'End membership: ram' }))
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'End this membership?' })).getByRole('button', {
        name: 'End membership',
      }),
    )
    await waitFor(() => expect(keys()).toContain('DELETE /api/admin/members/5/'))
    expect(await screen.findByText('Ended the membership of ram.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('row', { name: /Ram Thapa/ })).not.toBeInTheDocument())
  })

  it('says so when the membership could not be ended', async () => {
    handler = (key) =>
      key.startsWith('DELETE') ? { status: 404, body: { detail: 'Not found.', code: 'not_found' } } : list([ram])
    renderWithProviders(<MembersPage />)
    await userEvent.click(await screen.findByRole('button', { name: 'End membership: ram' }))
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End membership' }))
    expect(await screen.findByText('Failed to end the membership.')).toBeInTheDocument()
    expect(screen.queryByText(/Ended the membership/)).not.toBeInTheDocument()
  })

  it('adds pasted numbers with a role and shows who was added, invited and already a member', async () => {
    handler = (key) =>
      key === 'POST /api/admin/members/'
        ? {
            status: 200,
            body: { added: ['9841000001'], invited: ['9841000002', '9841000003'], already: ['9812345678'] },
          }
        : list([ram])
    renderWithProviders(<MembersPage />)
    await screen.findByRole('table')
    await userEvent.type(
      screen.getByLabelText('Phone numbers'),
      '9841000001{enter}९८४१०००००२, 9841000003{enter}9812345678',
    )
    await userEvent.selectOptions(screen.getByLabelText('Role to give'), 'marker')
    await userEvent.click(screen.getByRole('button', { name: 'Add members' }))
    await waitFor(() => expect(keys()).toContain('POST /api/admin/members/'))
    expect(sent.find((s) => s.key === 'POST /api/admin/members/')!.body).toEqual({
      phone_numbers: ['9841000001', '9841000002', '9841000003', '9812345678'],
      role: 'marker',
    })
    expect(await screen.findByText('Added: 1. Invited: 2. Already members: 1.')).toHaveAttribute('role', 'status')
    const phonesIn = (name: string) =>
      within(screen.getByRole('region', { name }))
        .getAllByRole('listitem')
        .map((item) => item.textContent)
    expect(phonesIn('Added (1)')).toEqual(['9841000001'])
    expect(phonesIn('Invited (2)')).toEqual(['9841000002', '9841000003'])
    expect(phonesIn('Already members (1)')).toEqual(['9812345678'])
    expect(screen.getByText(/they become members when they register or sign in here/)).toBeInTheDocument()
    // The list is cleared, so the same numbers are not added twice by a second press.
    expect(screen.getByLabelText('Phone numbers')).toHaveValue('')
  })

  it('names a malformed number by its line and sends nothing', async () => {
    handler = () => list([ram])
    renderWithProviders(<MembersPage />)
    await screen.findByRole('table')
    await userEvent.type(screen.getByLabelText('Phone numbers'), '9841000001{enter}9841000002{enter}98123')
    await userEvent.click(screen.getByRole('button', { name: 'Add members' }))
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('Line 3: 98123 is not a phone number')).toBeInTheDocument()
    expect(within(alert).getByText(/Nothing was added/)).toBeInTheDocument()
    expect(screen.getByLabelText('Phone numbers')).toHaveAttribute('aria-invalid', 'true')
    expect(keys().some((key) => key.startsWith('POST'))).toBe(false)
    expect(screen.queryByText(/^Added/)).not.toBeInTheDocument()
  })

  it('points at the line of a number the server refuses at phone_numbers.N, with nothing shown as added', async () => {
    handler = (key) =>
      key.startsWith('POST')
        ? {
            status: 400,
            body: {
              detail: 'Invalid request.',
              code: 'validation_error',
              errors: { 'phone_numbers.1': ['Enter a valid phone number.'] },
            },
          }
        : list([ram])
    renderWithProviders(<MembersPage />)
    await screen.findByRole('table')
    await userEvent.type(screen.getByLabelText('Phone numbers'), '9841000001{enter}{enter}9841000002')
    await userEvent.click(screen.getByRole('button', { name: 'Add members' }))
    expect(await screen.findByText('Line 3: 9841000002 is not a phone number')).toBeInTheDocument()
    expect(screen.queryByText(/^Added/)).not.toBeInTheDocument()
  })

  it('refuses more than 1,000 numbers before sending', async () => {
    handler = () => list([ram])
    renderWithProviders(<MembersPage />)
    await screen.findByRole('table')
    const many = Array.from({ length: 1001 }, (_, i) => String(9_840_000_000 + i)).join(',')
    const field = screen.getByLabelText('Phone numbers')
    await userEvent.click(field)
    await userEvent.paste(many)
    await userEvent.click(screen.getByRole('button', { name: 'Add members' }))
    expect(await screen.findByText('Add at most 1,000 numbers at a time; this list has 1,001.')).toBeInTheDocument()
    expect(keys().some((key) => key.startsWith('POST'))).toBe(false)
  })

  it('speaks Nepali: headings, roles, phones and the line of a malformed number in Devanagari digits', async () => {
    handler = () => list([ram])
    renderWithProviders(<MembersPage />, { language: 'ne' })
    expect(await screen.findByRole('heading', { name: 'सदस्यहरू', level: 1 })).toBeInTheDocument()
    const roles = await screen.findByRole('group', { name: 'ramका भूमिकाहरू' })
    expect(within(roles).getByRole('checkbox', { name: 'विद्यार्थी' })).toBeChecked()
    expect(within(roles).getByRole('checkbox', { name: 'परीक्षक' })).not.toBeChecked()
    expect(screen.getByRole('cell', { name: '९८१२३४५६७८' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'सदस्यता अन्त्य गर्नुहोस्: ram' })).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'फोन नम्बरबाट थप्नुहोस्' })).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('फोन नम्बरहरू'), '९८४१०००००१{enter}९८१२३')
    await userEvent.click(screen.getByRole('button', { name: 'सदस्य थप्नुहोस्' }))
    expect(await screen.findByText('लाइन २: ९८१२३ फोन नम्बर होइन')).toBeInTheDocument()
    expect(keys().some((key) => key.startsWith('POST'))).toBe(false)
  })
})
