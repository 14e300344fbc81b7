// Local stand-ins for Khalti and eSewa: real HTTP servers on 127.0.0.1 that answer with the request and
// response shapes of the providers' documentation (Khalti ePayment KPG-2, eSewa ePay v2). Tests drive what
// they say; nothing here ever talks to a real provider.
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { esewaSignature } from '../src/payments/providers/esewa'

interface Listening {
  url: string
  close(): Promise<void>
}

async function listen(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<Listening> {
  const server: Server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => (body += chunk))
    req.on('end', () => handler(req, body, res))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** How a gateway misbehaves: `down` answers 503 with an HTML page, `hang` never answers (the caller times out). */
export type Outage = 'none' | 'down' | 'hang'

export interface KhaltiTransaction {
  /** The merchant's secret key it was initiated with: only that merchant can look it up. */
  key: string
  pidx: string
  amount: number
  purchase_order_id: string
  status: string
  total_amount: number
  transaction_id: string | null
}

/** One Khalti for several merchants (institutes), each its secret key; a test reads which key each call came with. */
export async function startFakeKhalti(...secretKeys: string[]) {
  const transactions = new Map<string, KhaltiTransaction>()
  const state = {
    outage: 'none' as Outage,
    lookups: 0,
    /** The merchant key of each lookup, in order. */
    lookupKeys: [] as string[],
    initiates: [] as { authorization?: string; body: unknown }[],
    /** A payment_url to answer instead of the gateway's own (to test what the adapter accepts). */
    paymentUrl: undefined as string | undefined,
  }
  const server = await listen((req, raw, res) => {
    if (state.outage === 'hang') return
    if (state.outage === 'down') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>503</h1>')
    const key = secretKeys.find((known) => req.headers.authorization === `Key ${known}`)
    if (key === undefined) return json(res, 401, { detail: 'Invalid token.', status_code: 401 })
    // What KPG-2's initiate and lookup requests carry; the checks below refuse what the provider would.
    const body = JSON.parse(raw || '{}') as { amount: number; purchase_order_id: string; pidx: string }
    if (req.method === 'POST' && req.url === '/api/v2/epayment/initiate/') {
      state.initiates.push({ authorization: req.headers.authorization, body })
      if (!Number.isInteger(body.amount) || body.amount < 1000)
        return json(res, 400, {
          amount: ['Amount should be greater than Rs. 10, that is 1000 paisa.'],
          error_key: 'validation_error',
        })
      const pidx = randomBytes(11).toString('base64url')
      transactions.set(pidx, {
        key,
        pidx,
        amount: body.amount,
        purchase_order_id: body.purchase_order_id,
        status: 'Initiated',
        total_amount: body.amount,
        transaction_id: null,
      })
      return json(res, 200, {
        pidx,
        payment_url: state.paymentUrl ?? `${server.url}/?pidx=${pidx}`,
        expires_at: '2026-11-22T13:15:00.000000+05:45',
        expires_in: 1800,
      })
    }
    if (req.method === 'POST' && req.url === '/api/v2/epayment/lookup/') {
      state.lookups++
      state.lookupKeys.push(key)
      const transaction = transactions.get(body.pidx)
      // Another merchant's pidx is none of this one's business.
      if (!transaction || transaction.key !== key)
        return json(res, 404, { detail: 'Not found.', error_key: 'validation_error' })
      return json(res, 200, {
        pidx: transaction.pidx,
        total_amount: transaction.total_amount,
        status: transaction.status,
        transaction_id: transaction.transaction_id,
        fee: 0,
        refunded: transaction.status === 'Refunded',
      })
    }
    json(res, 404, { detail: 'Not found.' })
  })
  return {
    ...server,
    baseUrl: `${server.url}/api/v2/`,
    state,
    transactions,
    /** What the learner did on Khalti's page; `total_amount` lets a test make Khalti report another amount. */
    settle(pidx: string, status: string, totalAmount?: number) {
      const transaction = transactions.get(pidx)!
      transaction.status = status
      if (totalAmount !== undefined) transaction.total_amount = totalAmount
      if (status === 'Completed') transaction.transaction_id = `GFq9PFS7b2iYvL8Lir9oXe${pidx.slice(0, 4)}`
    },
  }
}
export type FakeKhalti = Awaited<ReturnType<typeof startFakeKhalti>>

/** One eSewa for `productCode` and any `others` merchants (institutes); a test reads which merchant each check named. */
export async function startFakeEsewa(
  productCode: string,
  secretKey: string,
  others: readonly { productCode: string; secretKey: string }[] = [],
) {
  const merchants = new Map([[productCode, secretKey], ...others.map((m) => [m.productCode, m.secretKey] as const)])
  /** By transaction_uuid: what eSewa's status check reports (rupees exactly as it would print them). */
  const transactions = new Map<
    string,
    { status: string; total_amount: number | string; ref_id: string | null; product_code?: string }
  >()
  const state = { outage: 'none' as Outage, checks: 0, checkedProductCodes: [] as string[] }
  const server = await listen((req, _raw, res) => {
    if (state.outage === 'hang') return
    if (state.outage === 'down') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>503</h1>')
    const url = new URL(req.url!, server.url)
    if (req.method === 'GET' && url.pathname === '/api/epay/transaction/status/') {
      state.checks++
      const uuid = url.searchParams.get('transaction_uuid') ?? ''
      const asked = url.searchParams.get('product_code') ?? ''
      state.checkedProductCodes.push(asked)
      if (!merchants.has(asked)) return json(res, 400, { code: 0, error_message: 'Invalid product code' })
      // A transaction is its merchant's: another product code does not find it.
      const found = transactions.get(uuid)
      const known = found && (found.product_code ?? productCode) === asked ? found : undefined
      return json(res, 200, {
        product_code: asked,
        transaction_uuid: uuid,
        total_amount: known?.total_amount ?? Number(url.searchParams.get('total_amount')),
        status: known?.status ?? 'NOT_FOUND',
        ref_id: known?.ref_id ?? null,
      })
    }
    json(res, 404, { code: 0, error_message: 'Not found' })
  })
  return {
    ...server,
    formUrl: `${server.url}/api/epay/main/v2/form`,
    statusUrl: `${server.url}/api/epay/transaction/status/`,
    state,
    transactions,
    /**
     * The `data` eSewa appends to success_url: base64 of its JSON, signed over signed_field_names. The amount
     * is written as eSewa writes it (a JSON number such as 1000.0, or a string such as "1,000.0").
     */
    successData(
      fields: { transaction_uuid: string; total_amount: string; status?: string; amountAsNumber?: boolean },
      key = secretKey,
      merchant = productCode,
    ) {
      const status = fields.status ?? 'COMPLETE'
      const names = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names'
      const values: [string, string][] = [
        ['transaction_code', '000AWEO'],
        ['status', status],
        ['total_amount', fields.total_amount],
        ['transaction_uuid', fields.transaction_uuid],
        ['product_code', merchant],
        ['signed_field_names', names],
      ]
      const signature = esewaSignature(key, values)
      const amount = fields.amountAsNumber ? fields.total_amount : JSON.stringify(fields.total_amount)
      const text =
        `{"transaction_code":"000AWEO","status":"${status}","total_amount":${amount},` +
        `"transaction_uuid":"${fields.transaction_uuid}","product_code":"${merchant}",` +
        `"signed_field_names":"${names}","signature":"${signature}"}`
      return Buffer.from(text).toString('base64')
    },
  }
}
export type FakeEsewa = Awaited<ReturnType<typeof startFakeEsewa>>
