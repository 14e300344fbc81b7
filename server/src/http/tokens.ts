import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { SignJWT } from 'jose'
import type { Clock } from '../lib/clock'

export interface AccessClaims {
  token_type: 'access'
  user_id: number
  username: string
  is_admin: boolean
  /** The login (refresh-token family) this token was issued for; absent on tokens signed before it existed. */
  sid?: string
  exp: number
  iat: number
  jti: string
}

export interface RefreshClaims {
  token_type: 'refresh'
  user_id: number
  family_id: string
  exp: number
  iat: number
  jti: string
}

export interface TokenUser {
  id: number
  username: string
  is_admin: boolean
  /** The login this access token belongs to (its refresh-token family), when known. */
  sessionId?: string
}

/** A base64url JSON part of a token as an object, or undefined when it is not one. */
function jsonObjectPart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/**
 * The claims of a compact HS256 JWS signed with `secret` and valid at `nowSeconds`, or undefined. Written here with
 * node:crypto's synchronous HMAC rather than jose's jwtVerify, whose WebCrypto job cost 240 µs of CPU a token
 * against a few µs (decision 021: when 1,000 learners start an exam at once every token is new to the cache below).
 * It checks what jose checked for our tokens: the header's alg is HS256 (so `none` and any other algorithm are
 * refused) with no `crit` or `b64` extension, the signature over the exact header and payload text compared in
 * constant time, the payload a JSON object, `exp` a number in the future, `nbf` (if any) not in the future, `iat`
 * (if any) a number. Tokens are still signed by jose.
 */
export function verifyHs256(token: string, secret: Uint8Array, nowSeconds: number) {
  const parts = token.split('.')
  if (parts.length !== 3) return undefined
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string]
  const header = jsonObjectPart(headerPart)
  if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return undefined
  const expected = createHmac('sha256', secret).update(`${headerPart}.${payloadPart}`).digest()
  const signature = Buffer.from(signaturePart, 'base64url')
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return undefined
  const claims = jsonObjectPart(payloadPart)
  if (!claims || typeof claims.exp !== 'number' || claims.exp <= nowSeconds) return undefined
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > nowSeconds)) return undefined
  if (claims.iat !== undefined && typeof claims.iat !== 'number') return undefined
  return claims
}

/**
 * HS256 only: verification pins the algorithm, so `alg: none` or an RS/HS confusion is refused, and
 * each verify pins the token_type, so a refresh token never passes as an access token or the reverse.
 */
export function createTokenSigner({
  secret,
  accessTtl,
  refreshTtl,
  clock,
}: {
  secret: string
  accessTtl: number
  refreshTtl: number
  clock: Clock
}) {
  // Imported once for signing: given the secret's bytes, jose imports a WebCrypto key on every sign.
  const signingKey = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  const nowSeconds = () => Math.floor(clock.now() / 1000)

  async function sign(claims: Record<string, unknown>, ttl: number, jti: string) {
    const iat = nowSeconds()
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .setJti(jti)
      .sign(await signingKey)
  }

  const secretBytes = new TextEncoder().encode(secret)
  function verify<T>(token: string, tokenType: string): T | undefined {
    const claims = verifyHs256(token, secretBytes, nowSeconds())
    return claims?.token_type === tokenType && typeof claims.user_id === 'number' ? (claims as T) : undefined
  }

  // Verifying a token (an HMAC and two JSON parses, about 11 µs; through jose it was 250) is a good part of a hot
  // route's work, and a learner sends the same access token hundreds of times. A verified token is remembered until it expires (expiry is still
  // checked on every use). Bounded so a flood of distinct tokens cannot grow it without limit.
  const verifiedAccess = new Map<string, AccessClaims>()
  async function verifyAccessCached(token: string) {
    const cached = verifiedAccess.get(token)
    if (cached) return cached.exp * 1000 > clock.now() ? cached : undefined
    const claims = verify<AccessClaims>(token, 'access')
    if (claims) {
      if (verifiedAccess.size >= 50_000) verifiedAccess.delete(verifiedAccess.keys().next().value!)
      verifiedAccess.set(token, claims)
    }
    return claims
  }

  return {
    accessTtl,
    refreshTtl,
    signAccess: (user: TokenUser) =>
      sign(
        {
          token_type: 'access',
          user_id: user.id,
          username: user.username,
          is_admin: user.is_admin,
          ...(user.sessionId && { sid: user.sessionId }),
        },
        accessTtl,
        randomUUID(),
      ),
    /** Returns the token with its jti and expiry so the caller can record it server-side. */
    async signRefresh(userId: number, familyId: string) {
      const jti = randomUUID()
      const token = await sign({ token_type: 'refresh', user_id: userId, family_id: familyId }, refreshTtl, jti)
      return { token, jti, expiresAt: (nowSeconds() + refreshTtl) * 1000 }
    },
    verifyAccess: verifyAccessCached,
    verifyRefresh: async (token: string) => verify<RefreshClaims>(token, 'refresh'),
  }
}

export type TokenSigner = ReturnType<typeof createTokenSigner>
