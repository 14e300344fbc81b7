import { SmsDeliveryError, type SmsMessage, type SmsSender } from './sms-sender'

export const SPARROW_URL = 'https://api.sparrowsms.com/v2/sms/'
export const AAKASH_URL = 'https://sms.aakashsms.com/sms/v3/send'

interface GatewayRequest {
  url: string
  headers: Record<string, string>
  body: string
}

// Errors name the gateway and status only: gateways echo the text (the code) and the request holds the token.
async function postToGateway(name: string, request: GatewayRequest, timeoutMs: number): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: { accept: 'application/json', ...request.headers },
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    })
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
    throw new SmsDeliveryError(
      timedOut
        ? `${name} SMS gateway did not answer within ${timeoutMs} ms`
        : `${name} SMS gateway could not be reached`,
      { cause: error },
    )
  }
  let text: string
  try {
    text = await response.text()
  } catch (error) {
    throw new SmsDeliveryError(`${name} SMS gateway broke off its answer (status ${response.status})`, { cause: error })
  }
  if (!response.ok) throw new SmsDeliveryError(`${name} SMS gateway refused the message with status ${response.status}`)
  try {
    return text.trim() === '' ? undefined : JSON.parse(text)
  } catch {
    return undefined
  }
}

const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString()
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' }

/** Generic JSON gateway: POST {to, text, sender} with a bearer token; any 2xx means accepted. */
export function createHttpGatewaySender({
  url,
  token,
  senderId,
  timeoutMs,
}: {
  url: string
  token?: string
  senderId: string
  timeoutMs: number
}): SmsSender {
  return {
    async send({ to, text, sender }: SmsMessage) {
      await postToGateway(
        'HTTP',
        {
          url,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ to, text, sender: sender ?? senderId }),
        },
        timeoutMs,
      )
    },
  }
}

/** Sparrow SMS (Nepal), API v2: form POST token, from, to, text; success is `response_code: 200`. */
export function createSparrowSender({
  url = SPARROW_URL,
  token,
  senderId,
  timeoutMs,
}: {
  url?: string
  token: string
  senderId: string
  timeoutMs: number
}): SmsSender {
  return {
    async send({ to, text, sender }: SmsMessage) {
      const answer = await postToGateway(
        'Sparrow',
        { url, headers: formHeaders, body: formBody({ token, from: sender ?? senderId, to, text }) },
        timeoutMs,
      )
      const code = (answer as { response_code?: unknown } | undefined)?.response_code
      if (code !== undefined && Number(code) !== 200) {
        throw new SmsDeliveryError(`Sparrow SMS gateway refused the message with response_code ${String(code)}`)
      }
    },
  }
}

/** Aakash SMS (Nepal), API v3: form POST auth_token, to, text; it reports failures as `error: true`. */
export function createAakashSender({
  url = AAKASH_URL,
  token,
  timeoutMs,
}: {
  url?: string
  token: string
  timeoutMs: number
}): SmsSender {
  return {
    async send({ to, text }: SmsMessage) {
      const answer = await postToGateway(
        'Aakash',
        { url, headers: formHeaders, body: formBody({ auth_token: token, to, text }) },
        timeoutMs,
      )
      const { error, data } = (answer ?? {}) as { error?: unknown; data?: { valid?: unknown[] } }
      if (error === true) throw new SmsDeliveryError('Aakash SMS gateway refused the message')
      if (Array.isArray(data?.valid) && data.valid.length === 0) {
        throw new SmsDeliveryError('Aakash SMS gateway found no valid recipient')
      }
    },
  }
}
