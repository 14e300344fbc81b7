import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { bearerFor, createUser } from '../../test/factories'
import { useTestApp } from '../../test/test-app'
import { multipart } from '../../test/auth-requests'
import { createTokenSigner } from '../http/tokens'

const routes = [
  '/api/token/',
  '/api/token/refresh/',
  '/api/token/revoke/',
  '/api/users/check-username/',
  '/api/users/check-phone/',
  '/api/users/otp/send/',
  '/api/users/otp/verify/',
  '/api/users/register/',
  '/api/users/password-reset/',
]

const bodies: [string, string | undefined, string][] = [
  ['null', 'application/json', 'null'],
  ['an array', 'application/json', '[1,2]'],
  ['a string', 'application/json', '"text"'],
  ['a number', 'application/json', '42'],
  ['an empty object', 'application/json', '{}'],
  ['malformed JSON', 'application/json', '{"a":'],
  [
    'nested objects everywhere',
    'application/json',
    JSON.stringify({
      username: { a: 1 },
      password: [1],
      phone_number: { $gt: '' },
      otp: null,
      purpose: ['login'],
      refresh: {},
      password2: 3,
    }),
  ],
  [
    'very long strings',
    'application/json',
    JSON.stringify({
      username: 'u'.repeat(100_000),
      password: 'p'.repeat(100_000),
      phone_number: '9'.repeat(100_000),
      otp: '1'.repeat(100_000),
      purpose: 'login',
      refresh: 'r'.repeat(100_000),
    }),
  ],
  [
    'a prototype-pollution attempt',
    'application/json',
    '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  ],
  ['form-encoded data', 'application/x-www-form-urlencoded', 'username=a&password=b'],
  ['plain text', 'text/plain', 'hello'],
  ['no content type', undefined, '{"username":"a"}'],
]

describe.each(dialects)('bad input on %s', (dialect) => {
  const t = useTestApp(dialect)

  it.each(bodies)(
    'answers a 4xx in the error shape, never a 500, to %s on every auth and users route',
    async (_label, type, payload) => {
      for (const url of routes) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          payload,
          headers: type ? { 'content-type': type } : {},
        })
        expect(response.statusCode, `${url}: ${response.body}`).toBeGreaterThanOrEqual(400)
        expect(response.statusCode, `${url}: ${response.body}`).toBeLessThan(500)
        expect(response.json()).toMatchObject({ detail: expect.any(String), code: expect.any(String) })
      }
    },
  )

  it('answers a 4xx, never a 500, to odd profile forms', async () => {
    const user = await createUser(t.database)
    const tokens = createTokenSigner({ secret: t.config.jwtSecret, accessTtl: 900, refreshTtl: 3600, clock: t.clock })
    const { authorization } = await bearerFor(tokens, user)
    const forms = [
      multipart({ __proto__: 'x', constructor: 'y' } as unknown as Record<string, string>),
      multipart({ preferred_language: '' }),
      multipart({ remove_picture: 'maybe' }),
      multipart({}, [
        {
          field: 'profile_picture',
          filename: 'a.png',
          contentType: 'image/png',
          data: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
        },
      ]),
      multipart({}, [
        { field: 'profile_picture', filename: 'a.png', contentType: 'image/png', data: Buffer.from('one') },
        { field: 'profile_picture', filename: 'b.png', contentType: 'image/png', data: Buffer.from('two') },
      ]),
      {
        payload: Buffer.from('not multipart at all'),
        headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
      },
      { payload: Buffer.from('--x\r\n'), headers: { 'content-type': 'multipart/form-data' } },
    ]
    for (const form of forms) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/users/profile/',
        headers: { ...form.headers, authorization },
        payload: form.payload,
      })
      expect(response.statusCode, response.body).toBeLessThan(500)
    }
  })
})
