import { createHmac } from 'node:crypto'
import { SignJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { FakeClock } from '../lib/clock'
import { createTokenSigner, hs256Verifier } from './tokens'

const SECRET = 'test-secret-test-secret-test-secret-0123'
const key = new TextEncoder().encode(SECRET)
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const now = Math.floor(Date.parse('2026-11-22T07:00:00.000Z') / 1000)

/** A compact JWS over exactly these header and claims, signed with `algorithm` (sha256 for HS256). */
function signed(header: object, claims: object, { algorithm = 'sha256', secret = SECRET } = {}) {
  const text = `${part(header)}.${part(claims)}`
  return `${text}.${createHmac(algorithm, secret).update(text).digest('base64url')}`
}

const HS256 = { alg: 'HS256', typ: 'JWT' }
const claims = { token_type: 'access', user_id: 7, username: 'sita', is_admin: false, iat: now, exp: now + 900 }

// fast-jwt replaced jose's jwtVerify on every token the server reads (decision 021); it must refuse all that
// jose refused for our tokens, and accept what jose signs.
const verifyHs256 = (token: string, secret: Uint8Array, at: number) => hs256Verifier(secret)(token, at)
describe('reading a token (hs256Verifier)', () => {
  it('accepts a token jose signed, and one signed by hand the same way', async () => {
    const joseSigned = await new SignJWT(claims).setProtectedHeader(HS256).sign(key)
    expect(verifyHs256(joseSigned, key, now)).toEqual(claims)
    expect(verifyHs256(signed(HS256, claims), key, now)).toEqual(claims)
  })

  it.each([
    ['alg none with no signature', `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`],
    ['alg none with the HS256 signature', signed({ alg: 'none' }, claims)],
    ['HS512 with the right secret', signed({ alg: 'HS512', typ: 'JWT' }, claims, { algorithm: 'sha512' })],
    ['HS256 with another secret', signed(HS256, claims, { secret: 'another-secret-another-secret-0123456' })],
    ['a critical header extension', signed({ ...HS256, crit: ['exp'] }, claims)],
    // RFC 7797's unencoded payload must be listed in crit; b64 alone is an unknown header over a normal signature.
    ['an unencoded payload (b64: false, critical)', signed({ ...HS256, b64: false, crit: ['b64'] }, claims)],
    ['an expired token', signed(HS256, { ...claims, exp: now })],
    ['a token without expiry', signed(HS256, { ...claims, exp: undefined })],
    ['an expiry that is a string', signed(HS256, { ...claims, exp: String(now + 900) })],
    ['a token not valid yet', signed(HS256, { ...claims, nbf: now + 1 })],
    ['an issued-at that is a string', signed(HS256, { ...claims, iat: 'now' })],
    ['a payload that is an array', signed(HS256, [claims])],
    ['two parts', `${part(HS256)}.${part(claims)}`],
    ['four parts', `${signed(HS256, claims)}.x`],
    ['not a token at all', 'not-a-jwt'],
    ['an empty string', ''],
  ])('refuses %s', (_name, token) => {
    expect(verifyHs256(token, key, now)).toBeUndefined()
  })

  it('refuses a token whose payload or header was changed after signing', () => {
    const [header, payload, signature] = signed(HS256, claims).split('.')
    expect(verifyHs256(`${header}.${part({ ...claims, user_id: 8 })}.${signature}`, key, now)).toBeUndefined()
    expect(verifyHs256(`${part({ ...HS256, kid: 'x' })}.${payload}.${signature}`, key, now)).toBeUndefined()
    expect(verifyHs256(`${header}.${payload}.${signature!.slice(0, -2)}`, key, now)).toBeUndefined()
  })
})

describe('the token signer', () => {
  it('reads back its own access and refresh tokens, each only as its own type, until they expire', async () => {
    const clock = new FakeClock()
    const signer = createTokenSigner({ secret: SECRET, accessTtl: 900, refreshTtl: 3600, clock })
    const access = await signer.signAccess({ id: 7, username: 'sita', is_admin: false })
    const { token: refresh } = await signer.signRefresh(7, 'family')
    expect(await signer.verifyAccess(access)).toMatchObject({ token_type: 'access', user_id: 7, username: 'sita' })
    expect(await signer.verifyRefresh(refresh)).toMatchObject({ token_type: 'refresh', user_id: 7 })
    expect(await signer.verifyAccess(refresh)).toBeUndefined()
    expect(await signer.verifyRefresh(access)).toBeUndefined()
    clock.advance(900_000)
    expect(await signer.verifyAccess(access)).toBeUndefined()
    expect(await signer.verifyRefresh(refresh)).toBeDefined()
  })
})
