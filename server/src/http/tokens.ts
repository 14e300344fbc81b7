import { randomUUID } from 'node:crypto'
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose'
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

/**
 * HS256 only: the verify call pins the algorithm, so `alg: none` or an RS/HS confusion is refused, and
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
  // Imported once: given the secret's bytes, jose imports a WebCrypto key on every sign and verify (150 -> 115 µs a
  // verify, measured alone; it counts when 1,000 learners start an exam at once, each token new to the cache below).
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  )
  const nowSeconds = () => Math.floor(clock.now() / 1000)

  async function sign(claims: Record<string, unknown>, ttl: number, jti: string) {
    const iat = nowSeconds()
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttl)
      .setJti(jti)
      .sign(await key)
  }

  async function verify<T>(token: string, tokenType: string): Promise<T | undefined> {
    try {
      const { payload } = await jwtVerify(token, await key, {
        algorithms: ['HS256'],
        currentDate: new Date(clock.now()),
      })
      return payload.token_type === tokenType && typeof payload.user_id === 'number' ? (payload as T) : undefined
    } catch (error) {
      if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined
      throw error
    }
  }

  // Verifying an HS256 signature costs more than the hot quiz routes themselves; a learner sends the same
  // access token hundreds of times. A verified token is remembered until it expires (expiry is still
  // checked on every use). Bounded so a flood of distinct tokens cannot grow it without limit.
  const verifiedAccess = new Map<string, AccessClaims>()
  async function verifyAccessCached(token: string) {
    const cached = verifiedAccess.get(token)
    if (cached) return cached.exp * 1000 > clock.now() ? cached : undefined
    const claims = await verify<AccessClaims>(token, 'access')
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
    verifyRefresh: (token: string) => verify<RefreshClaims>(token, 'refresh'),
  }
}

export type TokenSigner = ReturnType<typeof createTokenSigner>
