import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { FakeGateway } from '../../test/fake-sms-gateway'
import { useTestApp } from '../../test/test-app'
import { buildApp } from '../app'
import { ConfigError, loadConfig } from '../config'
import { createTokenSigner } from '../http/tokens'
import { createSmsSender } from './create-sms-sender'
import { createAakashSender, createHttpGatewaySender, createSparrowSender } from './http-gateway-sender'
import { SmsDeliveryError, type SmsMessage } from './sms-sender'

const message: SmsMessage = {
  to: '9812345678',
  text: 'Your login code is 482913. It expires in 5 minutes.',
  purpose: 'login',
}
const TOKEN = 'gateway-secret-token'

async function deliveryError(promise: Promise<unknown>): Promise<SmsDeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(SmsDeliveryError)
  const text = (error as Error).message
  // Neither the code nor the credentials may end up in logs through the error.
  expect(text).not.toContain('482913')
  expect(text).not.toContain(TOKEN)
  return error as SmsDeliveryError
}

describe('SMS gateway adapters', () => {
  const gateway = new FakeGateway()
  beforeEach(async () => {
    gateway.received = []
    gateway.answer = (response) => response.writeHead(200).end()
    await gateway.start()
  })
  afterEach(() => gateway.stop())

  describe('generic JSON gateway', () => {
    const sender = () =>
      createHttpGatewaySender({ url: gateway.url(), token: TOKEN, senderId: 'QuizNP', timeoutMs: 10_000 })

    it('posts {to, text, sender} as JSON with the bearer token', async () => {
      gateway.json(202, { id: 'abc' })
      await sender().send(message)
      expect(gateway.received).toHaveLength(1)
      const [request] = gateway.received
      expect(request).toMatchObject({ method: 'POST', url: '/send' })
      expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`)
      expect(request!.headers['content-type']).toBe('application/json')
      expect(JSON.parse(request!.body)).toEqual({ to: message.to, text: message.text, sender: 'QuizNP' })
    })

    it("posts an institute's own sender id when the message names one", async () => {
      gateway.json(202, { id: 'abc' })
      await sender().send({ ...message, sender: 'Pathshala' })
      expect(JSON.parse(gateway.received[0]!.body)).toMatchObject({ sender: 'Pathshala' })
    })

    it('throws SmsDeliveryError on an error status', async () => {
      gateway.json(500, { error: `could not send "${message.text}"` })
      const error = await deliveryError(sender().send(message))
      expect(error.message).toContain('500')
    })

    it('throws SmsDeliveryError when the gateway does not answer in time', async () => {
      gateway.hang()
      const slow = createHttpGatewaySender({ url: gateway.url(), token: TOKEN, senderId: 'QuizNP', timeoutMs: 150 })
      const error = await deliveryError(slow.send(message))
      expect(error.message).toContain('did not answer within 150 ms')
    })

    it('throws SmsDeliveryError when the gateway cannot be reached', async () => {
      const url = gateway.url()
      await gateway.stop()
      const unreachable = createHttpGatewaySender({ url, token: TOKEN, senderId: 'QuizNP', timeoutMs: 10_000 })
      const error = await deliveryError(unreachable.send(message))
      expect(error.message).toContain('could not be reached')
      await gateway.start()
    })

    it('throws SmsDeliveryError on a redirect instead of following it', async () => {
      gateway.answer = (response) => response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end()
      await deliveryError(sender().send(message))
    })
  })

  describe('Sparrow SMS', () => {
    const sender = () =>
      createSparrowSender({ url: gateway.url('/v2/sms/'), token: TOKEN, senderId: 'QuizNP', timeoutMs: 10_000 })

    it('posts token, from, to and text as a form', async () => {
      gateway.json(200, { count: 1, response_code: 200, response: '1 mesages has been queued.' })
      await sender().send(message)
      const [request] = gateway.received
      expect(request).toMatchObject({ method: 'POST', url: '/v2/sms/' })
      expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded')
      expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({
        token: TOKEN,
        from: 'QuizNP',
        to: message.to,
        text: message.text,
      })
    })

    it("sends from an institute's own sender id when the message names one", async () => {
      gateway.json(200, { count: 1, response_code: 200, response: '1 mesages has been queued.' })
      await sender().send({ ...message, sender: 'Pathshala' })
      expect(new URLSearchParams(gateway.received[0]!.body).get('from')).toBe('Pathshala')
    })

    it('throws SmsDeliveryError on an error status such as an invalid token', async () => {
      gateway.json(403, { response_code: 1002, response: 'Invalid Token' })
      expect((await deliveryError(sender().send(message))).message).toContain('403')
    })

    it('throws SmsDeliveryError when a 200 answer carries a failing response_code', async () => {
      gateway.json(200, { response_code: 1008, response: 'Insufficient credits' })
      expect((await deliveryError(sender().send(message))).message).toContain('1008')
    })

    it('throws SmsDeliveryError on a timeout', async () => {
      gateway.hang()
      const slow = createSparrowSender({
        url: gateway.url('/v2/sms/'),
        token: TOKEN,
        senderId: 'QuizNP',
        timeoutMs: 150,
      })
      await deliveryError(slow.send(message))
    })
  })

  describe('Aakash SMS', () => {
    const sender = () => createAakashSender({ url: gateway.url('/sms/v3/send'), token: TOKEN, timeoutMs: 10_000 })

    it('posts auth_token, to and text as a form', async () => {
      gateway.json(200, {
        error: false,
        message: '1 messages has been queued for delivery.',
        data: { valid: [{ id: 1 }], invalid: [] },
      })
      await sender().send(message)
      const [request] = gateway.received
      expect(request).toMatchObject({ method: 'POST', url: '/sms/v3/send' })
      expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({
        auth_token: TOKEN,
        to: message.to,
        text: message.text,
      })
    })

    it('throws SmsDeliveryError when the answer says error: true', async () => {
      gateway.json(200, { error: true, message: 'The provided Auth Token is not valid.', data: [] })
      await deliveryError(sender().send(message))
    })

    it('throws SmsDeliveryError when the number was not accepted', async () => {
      gateway.json(200, { error: false, message: '0 messages', data: { valid: [], invalid: [{ mobile: message.to }] } })
      await deliveryError(sender().send(message))
    })

    it('throws SmsDeliveryError on an error status', async () => {
      gateway.json(401, { error: true, message: 'Unauthorized' })
      expect((await deliveryError(sender().send(message))).message).toContain('401')
    })

    it('throws SmsDeliveryError on a timeout', async () => {
      gateway.hang()
      const slow = createAakashSender({ url: gateway.url('/sms/v3/send'), token: TOKEN, timeoutMs: 150 })
      await deliveryError(slow.send(message))
    })
  })

  describe('choosing the sender from the settings', () => {
    const config = (env: Record<string, string>) =>
      loadConfig(
        { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/quiz-test-data', ...env },
        { persistSecret: false },
      )
    const clock = { now: () => 0 }

    it.each([
      [
        'http',
        { SMS_PROVIDER: 'http', SMS_GATEWAY_TOKEN: TOKEN },
        { to: message.to, text: message.text, sender: 'QuizNP' },
      ],
      [
        'sparrow',
        { SMS_PROVIDER: 'sparrow', SMS_GATEWAY_TOKEN: TOKEN },
        { token: TOKEN, from: 'QuizNP', to: message.to, text: message.text },
      ],
      [
        'aakash',
        { SMS_PROVIDER: 'aakash', SMS_GATEWAY_TOKEN: TOKEN },
        { auth_token: TOKEN, to: message.to, text: message.text },
      ],
    ])('SMS_PROVIDER=%s with SMS_GATEWAY_URL talks to that gateway', async (provider, env, expected) => {
      gateway.json(200, { response_code: 200, error: false })
      await createSmsSender(config({ ...env, SMS_GATEWAY_URL: gateway.url() }), clock).send(message)
      const body = gateway.received[0]!.body
      expect(provider === 'http' ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body))).toEqual(expected)
    })
  })
})

describe('SMS settings', () => {
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
    DATA_DIR: '/tmp/quiz-test-data',
  }

  it('refuses the console sender in production', () => {
    expect(() => loadConfig({ ...production }, { persistSecret: false })).toThrow(ConfigError)
    expect(() => loadConfig({ ...production, SMS_PROVIDER: 'console' }, { persistSecret: false })).toThrow(
      /SMS_PROVIDER=console/,
    )
  })

  it('accepts a real gateway in production', () => {
    const config = loadConfig(
      { ...production, SMS_PROVIDER: 'sparrow', SMS_GATEWAY_TOKEN: TOKEN },
      { persistSecret: false },
    )
    expect(config.sms).toMatchObject({ provider: 'sparrow', gatewayToken: TOKEN, timeoutMs: 10_000 })
  })

  it('refuses a gateway without the settings it needs', () => {
    expect(() => loadConfig({ ...production, SMS_PROVIDER: 'http' }, { persistSecret: false })).toThrow(
      /SMS_GATEWAY_URL is required/,
    )
    expect(() => loadConfig({ ...production, SMS_PROVIDER: 'aakash' }, { persistSecret: false })).toThrow(
      /SMS_GATEWAY_TOKEN is required/,
    )
  })
})

describe.each(dialects)('OTP through a real gateway on %s', (dialect) => {
  const t = useTestApp(dialect)
  const gateway = new FakeGateway()
  beforeEach(() => gateway.start())
  afterEach(() => gateway.stop())

  // A gateway that answers gets the default time (a loaded machine can take hundreds of milliseconds over a local
  // socket); only the hanging one is given a short timeout, which it always reaches.
  async function appWithGateway(timeoutMs = '10000') {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        JWT_SECRET: t.config.jwtSecret,
        LOG_LEVEL: 'silent',
        SMS_PROVIDER: 'http',
        SMS_GATEWAY_URL: gateway.url(),
        SMS_TIMEOUT_MS: timeoutMs,
      },
      { persistSecret: false },
    )
    const tokens = createTokenSigner({ secret: config.jwtSecret, accessTtl: 900, refreshTtl: 3600, clock: t.clock })
    const app = await buildApp(
      { config, database: t.database, clock: t.clock, tokens, sms: createSmsSender(config, t.clock) },
      { logger: false },
    )
    return app
  }

  it('texts the code through the gateway', async () => {
    const app = await appWithGateway()
    const response = await app.inject({
      method: 'POST',
      url: '/api/users/otp/send/',
      payload: { phone_number: '9812345678', purpose: 'register' },
    })
    expect(response.statusCode).toBe(200)
    expect(JSON.parse(gateway.received[0]!.body).text).toMatch(/\b\d{6}\b/)
    await app.close()
  })

  it.each([
    ['answers an error status', (g: FakeGateway) => g.json(503, { error: 'down' }), '10000'],
    ['times out', (g: FakeGateway) => g.hang(), '300'],
  ])('answers 503 sms_failed and keeps no valid code when the gateway %s', async (_label, breakIt, timeoutMs) => {
    breakIt(gateway)
    const app = await appWithGateway(timeoutMs)
    const response = await app.inject({
      method: 'POST',
      url: '/api/users/otp/send/',
      payload: { phone_number: '9812345678', purpose: 'register' },
    })
    expect(response.statusCode).toBe(503)
    expect(response.json().code).toBe('sms_failed')
    expect(await t.db.selectFrom('otp_codes').selectAll().execute()).toEqual([])
    await app.close()
  })
})
