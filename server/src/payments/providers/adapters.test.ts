import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeEsewa, startFakeKhalti, type FakeEsewa, type FakeKhalti } from '../../../test/fake-gateways'
import { createEsewaAdapter, esewaSignature, verifyEsewaReturn } from './esewa'
import { createKhaltiAdapter } from './khalti'
import type { ProviderPayment } from './provider'

const NOW = Date.parse('2026-11-22T07:00:00.000Z')
const HOUR = 3_600_000
const KHALTI_KEY = 'live_secret_key_68791341fdd94846a146f0457ff7b455'
const ESEWA_KEY = '8gBm/:&EnhH.1/q'

const payment = (overrides: Partial<ProviderPayment> = {}): ProviderPayment => ({
  id: 7,
  amount_paisa: 50000,
  provider_ref: null,
  created_at: NOW,
  plan_name: 'One month',
  ...overrides,
})

describe('Khalti adapter against a local Khalti', () => {
  let khalti: FakeKhalti
  beforeAll(async () => {
    khalti = await startFakeKhalti(KHALTI_KEY)
  })
  afterAll(() => khalti.close())
  beforeEach(() => {
    khalti.state.outage = 'none'
  })
  // Answering gateways get a long timeout (a loaded machine is slow even over a local socket); a hanging one is given
  // a short one explicitly, which it always reaches.
  const adapter = (key = KHALTI_KEY, timeoutMs = 10_000) =>
    createKhaltiAdapter({ baseUrl: khalti.baseUrl, secretKey: key, publicUrl: 'https://quiz.example.np', timeoutMs })

  async function started() {
    const start = await adapter().start(payment())
    return payment({ provider_ref: start.providerRef })
  }

  it('initiates server-side with the secret key, our id, the amount in paisa and the return URL', async () => {
    const start = await adapter().start(payment())
    const sent = khalti.state.initiates.at(-1)!
    expect(sent.authorization).toBe(`Key ${KHALTI_KEY}`)
    expect(sent.body).toEqual({
      return_url: 'https://quiz.example.np/api/payments/khalti/return/',
      website_url: 'https://quiz.example.np',
      amount: 50000,
      purchase_order_id: '7',
      purchase_order_name: 'One month',
    })
    expect(start.redirect).toEqual({ method: 'GET', url: `${khalti.url}/?pidx=${start.providerRef}`, fields: {} })
  })

  it('refuses a payment_url that is not http(s), so the browser is never sent to script', async () => {
    khalti.state.paymentUrl = 'javascript:alert(1)'
    try {
      await expect(adapter().start(payment())).rejects.toThrow('Khalti initiate answered 200')
    } finally {
      khalti.state.paymentUrl = undefined
    }
  })

  it('refuses to start when Khalti refuses the key', async () => {
    await expect(adapter('wrong').start(payment())).rejects.toThrow('Khalti initiate answered 401')
  })

  it('completes only on Completed with our amount', async () => {
    const p = await started()
    khalti.settle(p.provider_ref!, 'Completed')
    expect(await adapter().verify(p, NOW)).toEqual({ kind: 'completed', transactionId: expect.any(String) })
  })

  it('fails a Completed lookup that names another amount, with a warning', async () => {
    const p = await started()
    khalti.settle(p.provider_ref!, 'Completed', 100)
    expect(await adapter().verify(p, NOW)).toMatchObject({
      kind: 'failed',
      reason: 'mismatch',
      warning: expect.any(String),
    })
  })

  it.each([
    ['Initiated', { kind: 'pending' }],
    ['Pending', { kind: 'pending' }],
    ['Expired', { kind: 'failed', reason: 'expired' }],
    ['User canceled', { kind: 'failed', reason: 'canceled' }],
    ['Refunded', { kind: 'failed', reason: 'refunded' }],
  ])('maps a lookup that says %s', async (status, outcome) => {
    const p = await started()
    khalti.settle(p.provider_ref!, status)
    expect(await adapter().verify(p, NOW)).toEqual(outcome)
  })

  it('stays pending while Khalti is down or silent, and completes once it recovers', async () => {
    const p = await started()
    khalti.settle(p.provider_ref!, 'Completed')
    khalti.state.outage = 'down'
    expect(await adapter().verify(p, NOW)).toMatchObject({ kind: 'unreachable' })
    khalti.state.outage = 'hang'
    expect(await adapter(KHALTI_KEY, 200).verify(p, NOW)).toMatchObject({ kind: 'unreachable' })
    khalti.state.outage = 'none'
    expect(await adapter().verify(p, NOW)).toMatchObject({ kind: 'completed' })
  })

  it('cannot start while Khalti is down', async () => {
    khalti.state.outage = 'down'
    await expect(adapter().start(payment())).rejects.toThrow('503')
  })
})

describe('eSewa adapter against a local eSewa', () => {
  let esewa: FakeEsewa
  beforeAll(async () => {
    esewa = await startFakeEsewa('EPAYTEST', ESEWA_KEY)
  })
  afterAll(() => esewa.close())
  beforeEach(() => {
    esewa.state.outage = 'none'
  })
  const adapter = (timeoutMs = 10_000) =>
    createEsewaAdapter({
      formUrl: esewa.formUrl,
      statusUrl: esewa.statusUrl,
      productCode: 'EPAYTEST',
      secretKey: ESEWA_KEY,
      publicUrl: 'https://quiz.example.np',
      timeoutMs,
    })

  it('signs the form over total_amount, transaction_uuid and product_code, amounts in rupees', async () => {
    const start = await adapter().start(payment({ amount_paisa: 12345 }))
    const { fields } = start.redirect
    expect(start.redirect.method).toBe('POST')
    expect(start.redirect.url).toBe(esewa.formUrl)
    expect(fields).toMatchObject({
      amount: '123.45',
      total_amount: '123.45',
      tax_amount: '0',
      product_code: 'EPAYTEST',
      transaction_uuid: start.providerRef,
      signed_field_names: 'total_amount,transaction_uuid,product_code',
      success_url: 'https://quiz.example.np/api/payments/esewa/return/7/success/',
      failure_url: 'https://quiz.example.np/api/payments/esewa/return/7/failure/',
    })
    expect(start.providerRef).toMatch(/^7-[0-9a-f]{12}$/)
    // eSewa's documented example (UAT key over "total_amount=110,transaction_uuid=241028,product_code=EPAYTEST").
    expect(
      esewaSignature(ESEWA_KEY, [
        ['total_amount', '110'],
        ['transaction_uuid', '241028'],
        ['product_code', 'EPAYTEST'],
      ]),
    ).toBe('i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=')
    expect(fields.signature).toBe(
      esewaSignature(ESEWA_KEY, [
        ['total_amount', '123.45'],
        ['transaction_uuid', start.providerRef],
        ['product_code', 'EPAYTEST'],
      ]),
    )
  })

  it('accepts a return whose signature verifies, the amount written as a number or a string', () => {
    for (const [total_amount, amountAsNumber] of [
      ['1000.0', true],
      ['1,000.0', false],
    ] as const) {
      const data = esewa.successData({ transaction_uuid: '7-abc', total_amount, amountAsNumber })
      expect(verifyEsewaReturn(ESEWA_KEY, data)).toEqual({
        transaction_uuid: '7-abc',
        product_code: 'EPAYTEST',
        total_amount,
        status: 'COMPLETE',
      })
    }
  })

  it('refuses a forged return: another key, a changed field, garbage', () => {
    expect(
      verifyEsewaReturn(ESEWA_KEY, esewa.successData({ transaction_uuid: '7-abc', total_amount: '500' }, 'forger')),
    ).toBeUndefined()
    const genuine = Buffer.from(
      esewa.successData({ transaction_uuid: '7-abc', total_amount: '500' }),
      'base64',
    ).toString()
    const tampered = Buffer.from(genuine.replace('"500"', '"5"')).toString('base64')
    expect(verifyEsewaReturn(ESEWA_KEY, tampered)).toBeUndefined()
    expect(verifyEsewaReturn(ESEWA_KEY, 'not base64 json')).toBeUndefined()
    const unsigned = Buffer.from(JSON.stringify({ status: 'COMPLETE', signature: 'x' })).toString('base64')
    expect(verifyEsewaReturn(ESEWA_KEY, unsigned)).toBeUndefined()
  })

  async function started(amount = 50000) {
    const start = await adapter().start(payment({ amount_paisa: amount }))
    return payment({ amount_paisa: amount, provider_ref: start.providerRef })
  }

  it('completes only on COMPLETE with our amount exactly', async () => {
    const p = await started(12345)
    esewa.transactions.set(p.provider_ref!, { status: 'COMPLETE', total_amount: 123.45, ref_id: '000AWEO' })
    expect(await adapter().verify(p, NOW)).toEqual({ kind: 'completed', transactionId: '000AWEO' })
    esewa.transactions.set(p.provider_ref!, { status: 'COMPLETE', total_amount: '123.4', ref_id: '000AWEO' })
    expect(await adapter().verify(p, NOW)).toMatchObject({ kind: 'failed', reason: 'mismatch' })
  })

  it.each([
    ['PENDING', NOW, { kind: 'pending' }],
    ['AMBIGUOUS', NOW, { kind: 'pending' }],
    ['NOT_FOUND', NOW + HOUR / 2, { kind: 'pending' }],
    ['NOT_FOUND', NOW + 2 * HOUR, { kind: 'failed', reason: 'not_found' }],
    ['CANCELED', NOW, { kind: 'failed', reason: 'canceled' }],
    ['FULL_REFUND', NOW, { kind: 'failed', reason: 'refunded' }],
  ])('maps a status check that says %s', async (status, now, outcome) => {
    const p = await started()
    if (status !== 'NOT_FOUND') esewa.transactions.set(p.provider_ref!, { status, total_amount: 500, ref_id: null })
    expect(await adapter().verify(p, now)).toEqual(outcome)
  })

  it('stays pending while eSewa is down or silent, and completes once it recovers', async () => {
    const p = await started()
    esewa.transactions.set(p.provider_ref!, { status: 'COMPLETE', total_amount: 500.0, ref_id: 'R1' })
    esewa.state.outage = 'down'
    expect(await adapter().verify(p, NOW)).toMatchObject({ kind: 'unreachable' })
    esewa.state.outage = 'hang'
    expect(await adapter(200).verify(p, NOW)).toMatchObject({ kind: 'unreachable' })
    esewa.state.outage = 'none'
    expect(await adapter().verify(p, NOW)).toEqual({ kind: 'completed', transactionId: 'R1' })
  })
})
