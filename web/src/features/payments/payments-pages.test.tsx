import { configure, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Route, Routes } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { jsonResponse, signInAs } from '../../test/page-test-utils'
import { renderWithProviders } from '../../test/render'
import { Component as PaymentPage } from './payment-page'
import { handOff, PENDING_POLL_MS } from './payments.api'
import { Component as PlansPage } from './plans-page'

configure({ asyncUtilTimeout: 4000 })

const payment = (overrides: object) => ({
  payment_id: 12,
  provider: 'khalti',
  plan_id: 1,
  plan_name: { en: 'One month', ne: 'एक महिना' },
  amount_paisa: 50000,
  days: 30,
  status: 'pending',
  failure_reason: null,
  paid_access_until: null,
  created_at: '2026-11-22T07:00:00.000Z',
  completed_at: null,
  ...overrides,
})

/** Answers by path; each path's answers are used in turn, the last one repeated. */
let routes: Record<string, { status: number; body: unknown }[]>
const calls: string[] = []
beforeEach(() => {
  signInAs({ username: 'sita', is_admin: false })
  calls.length = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`
      calls.push(key)
      const queue = routes[key]
      if (!queue) throw new Error(`unexpected request ${key}`)
      const answer = queue.length > 1 ? queue.shift()! : queue[0]!
      return jsonResponse(answer.status, answer.body)
    }),
  )
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const renderPayment = (language: 'en' | 'ne' = 'en') =>
  renderWithProviders(
    <Routes>
      <Route path="/payments/:paymentId" element={<PaymentPage />} />
    </Routes>,
    { route: '/payments/12', language },
  )

describe('payment page', () => {
  it('checks a pending payment again by itself and shows the access end once completed', async () => {
    routes = {
      'GET /api/payments/12/': [
        { status: 200, body: payment({}) },
        {
          status: 200,
          body: payment({ status: 'completed', paid_access_until: '2026-12-22T07:00:00.000Z' }),
        },
      ],
    }
    renderPayment()
    expect(await screen.findByText(/We are confirming your payment with Khalti/)).toBeInTheDocument()
    expect(screen.getByText('One month, 30 days, Rs 500, via Khalti')).toBeInTheDocument()
    expect(
      await screen.findByText('Payment complete. Thank you!', {}, { timeout: PENDING_POLL_MS + 3000 }),
    ).toBeInTheDocument()
    expect(screen.getByText(/You have paid access until 22 Dec 2026/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to quizzes' })).toHaveAttribute('href', '/')
  })

  it('says why a payment failed and offers to try again, in Nepali with Devanagari digits', async () => {
    routes = {
      'GET /api/payments/12/': [{ status: 200, body: payment({ status: 'failed', failure_reason: 'canceled' }) }],
    }
    renderPayment('ne')
    expect(await screen.findByText(/भुक्तानी रद्द गरियो।/)).toBeInTheDocument()
    expect(screen.getByText('एक महिना, ३० दिन, रु ५००, खल्ती मार्फत')).toBeInTheDocument()
    expect(screen.getByText('भुक्तानी नम्बर १२')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'फेरि प्रयास गर्नुहोस्' })).toHaveAttribute('href', '/plans')
  })

  it("shows 'Payment not found.' for another learner's payment", async () => {
    routes = { 'GET /api/payments/12/': [{ status: 404, body: { detail: 'Payment not found.', code: 'not_found' } }] }
    renderPayment()
    expect(await screen.findByText('Payment not found.')).toBeInTheDocument()
  })
})

describe('plans page', () => {
  it('lists plans with rupee prices and starts a payment with the chosen provider', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    routes = {
      'GET /api/plans/': [
        {
          status: 200,
          body: [{ id: 3, name: { en: 'One month', ne: '' }, price_paisa: 49950, days: 30, active: true }],
        },
      ],
      'GET /api/payments/providers/': [{ status: 200, body: ['khalti', 'esewa'] }],
      'POST /api/payments/': [
        {
          status: 201,
          body: {
            payment_id: 9,
            provider: 'khalti',
            amount_paisa: 49950,
            status: 'pending',
            redirect: { method: 'GET', url: 'https://pay.khalti.example/?pidx=abc', fields: {} },
          },
        },
      ],
    }
    renderPlans()
    expect(await screen.findByText('Rs 499.50')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Pay with Khalti', description: 'One month' }))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://pay.khalti.example/?pidx=abc'))
    expect(calls).toContain('POST /api/payments/')
  })

  it('says so when the provider cannot be reached', async () => {
    routes = {
      'GET /api/plans/': [
        { status: 200, body: [{ id: 3, name: { en: 'Month', ne: '' }, price_paisa: 1000, days: 1, active: true }] },
      ],
      'GET /api/payments/providers/': [{ status: 200, body: ['khalti'] }],
      'POST /api/payments/': [{ status: 503, body: { detail: 'x', code: 'service_unavailable' } }],
    }
    renderPlans()
    await userEvent.click(await screen.findByRole('button', { name: 'Pay with Khalti' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Khalti cannot be reached right now.')
  })
})

const renderPlans = () => renderWithProviders(<PlansPage />, { route: '/plans' })

describe('handOff', () => {
  it('posts a real form with every signed field for eSewa', () => {
    const submit = vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(() => {})
    handOff({
      method: 'POST',
      url: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form',
      fields: { total_amount: '500', signature: 's=' },
    })
    const form = document.querySelector('form')!
    expect(form.method).toBe('post')
    expect(form.action).toBe('https://rc-epay.esewa.com.np/api/epay/main/v2/form')
    expect(Object.fromEntries(new FormData(form))).toEqual({ total_amount: '500', signature: 's=' })
    expect(submit).toHaveBeenCalled()
    form.remove()
  })
})
