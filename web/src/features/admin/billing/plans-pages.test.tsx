import { configure, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { answerFetch, signInAs, type SentRequest } from '../../../test/page-test-utils'
import { renderWithProviders } from '../../../test/render'
import { Component as PaymentsPage } from './payments-page'
import { Component as PlansPage } from './plans-page'

configure({ asyncUtilTimeout: 4000 })

let handler: (key: string, body: unknown) => { status: number; body: unknown }
const sent: SentRequest[] = []
beforeEach(() => {
  signInAs({ username: 'boss', is_admin: true })
  sent.length = 0
  answerFetch((key, body) => handler(key, body), sent)
})
afterEach(() => vi.unstubAllGlobals())

const month = { id: 1, name: { en: 'One month', ne: 'एक महिना' }, price_paisa: 50000, days: 30, active: true }

describe('admin plans', () => {
  it('creates a plan with the price typed in rupees sent as exact paisa', async () => {
    handler = (key) =>
      key === 'GET /api/admin/plans/' ? { status: 200, body: [month] } : { status: 201, body: { ...month, id: 2 } }
    renderWithProviders(<PlansPage />)
    expect(await screen.findByText('Rs 500 for 30 days')).toBeInTheDocument()
    // Only the new-plan form is open, so each label names one field.
    await userEvent.type(screen.getByLabelText('Name (English)'), 'Three months')
    await userEvent.type(screen.getByLabelText('Price (Rs)'), '1,299.90')
    await userEvent.clear(screen.getByLabelText('Days'))
    await userEvent.type(screen.getByLabelText('Days'), '90')
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }))
    await waitFor(() => expect(sent.map((s) => s.key)).toContain('POST /api/admin/plans/'))
    expect(sent.find((s) => s.key === 'POST /api/admin/plans/')!.body).toEqual({
      name: { en: 'Three months', ne: '' },
      price_paisa: 129990,
      days: 90,
      active: true,
    })
    expect(await screen.findByText('Plan created.')).toBeInTheDocument()
  })

  it("refuses a price it cannot read, and shows the server's field errors", async () => {
    handler = (key) =>
      key === 'GET /api/admin/plans/'
        ? { status: 200, body: [] }
        : {
            status: 400,
            body: { detail: 'x', code: 'validation_error', errors: { days: ['A plan lasts 1 to 3660 days.'] } },
          }
    renderWithProviders(<PlansPage />)
    await screen.findByText('No plans yet. Create one below.')
    await userEvent.type(screen.getByLabelText('Name (English)'), 'Forever')
    await userEvent.type(screen.getByLabelText('Price (Rs)'), '10.001')
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }))
    expect(await screen.findByText('Enter a price in rupees, with at most two decimals.')).toBeInTheDocument()
    expect(sent.some((s) => s.key === 'POST /api/admin/plans/')).toBe(false)
    await userEvent.clear(screen.getByLabelText('Price (Rs)'))
    await userEvent.type(screen.getByLabelText('Price (Rs)'), '10')
    await userEvent.clear(screen.getByLabelText('Days'))
    await userEvent.type(screen.getByLabelText('Days'), '9999')
    await userEvent.click(screen.getByRole('button', { name: 'Create plan' }))
    expect(await screen.findByText('A plan lasts 1 to 3660 days.')).toBeInTheDocument()
  })
})

describe('admin payments', () => {
  it('lists payments and filters by status', async () => {
    handler = (key) => ({
      status: 200,
      body: {
        count: 1,
        page: 1,
        page_size: 50,
        results: [
          {
            payment_id: 7,
            provider: 'khalti',
            status: key.includes('status=failed') ? 'failed' : 'completed',
            failure_reason: key.includes('status=failed') ? 'expired' : null,
            amount_paisa: 50000,
            days: 30,
            plan: { id: 1, name: { en: 'One month', ne: '' } },
            learner: { id: 3, username: 'sita' },
            provider_ref: 'pidx123',
            created_at: '2026-11-22T07:00:00.000Z',
            completed_at: null,
          },
        ],
      },
    })
    renderWithProviders(<PaymentsPage />)
    expect(await screen.findByRole('cell', { name: 'sita' })).toBeInTheDocument()
    expect(screen.getByRole('cell', { name: 'Completed' })).toBeInTheDocument()
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'failed')
    expect(await screen.findByText('(expired)')).toBeInTheDocument()
    expect(sent.at(-1)!.key).toBe('GET /api/admin/payments/?page=1&status=failed')
  })
})
