import { randomUUID } from 'node:crypto'
import { createVerifier } from 'fast-jwt'
import { SignJWT } from 'jose'
import type { Clock } from '../lib/clock'

export interface AccessClaims {
  token_type: 'access'
  user_id: number
  username: string
  is_admin: boolean
  is_marker?: boolean
  sid?: string
  /** The slug of the institute the token is for; absent in tokens signed before institutes: `main`. */
  institute?: string
  /** A platform admin's token (docs/decisions/097): reaches /api/platform/* on the platform's address. */
  is_platform_admin?: boolean
  /** A platform admin acting as an admin of `institute` (docs/decisions/097): 15 minutes, no refresh. */
  acting?: boolean
  exp: number
  iat: number
  jti: string
}

export interface RefreshClaims {
  token_type: 'refresh'
  user_id: number
  family_id: string
  institute?: string
  exp: number
  iat: number
  jti: string
}

export interface TokenUser {
  id: number
  username: string
  is_admin: boolean
  /** Reaches the marking routes (docs/decisions/068); absent in tokens signed before markers existed. */
  is_marker?: boolean
  sessionId?: string
  institute?: string
  is_platform_admin?: boolean
  acting?: boolean
}

/** How long an act-as token lives (API.md "Platform admins"): there is no refresh for it. */
export const ACT_AS_SECONDS = 15 * 60

// fast-jwt verifies synchronously, cheaper in a start storm (decision 021); times checked here on the server's clock.
export function hs256Verifier(secret: string | Uint8Array) {
  const decode = createVerifier({
    key: typeof secret === 'string' ? secret : Buffer.from(secret),
    algorithms: ['HS256'],
    ignoreExpiration: true,
    ignoreNotBefore: true,
  })
  return (token: string, nowSeconds: number): Record<string, unknown> | undefined => {
    let claims: unknown
    try {
      claims = decode(token)
    } catch {
      return undefined
    }
    if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) return undefined
    const { exp, nbf, iat } = claims as Record<string, unknown>
    if (typeof exp !== 'number' || exp <= nowSeconds) return undefined
    if (nbf !== undefined && (typeof nbf !== 'number' || nbf > nowSeconds)) return undefined
    if (iat !== undefined && typeof iat !== 'number') return undefined
    return claims as Record<string, unknown>
  }
}

// Pins HS256 (no `alg: none`, no RS/HS confusion) and the token_type: a refresh token never passes as an access one.
export function createTokenSigner({
  secret,
  accessTtl,
  refreshTtl,
  sessionMaxTtl = 90 * 24 * 60 * 60,
  clock,
}: {
  secret: string
  accessTtl: number
  refreshTtl: number
  sessionMaxTtl?: number
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

  const verifyHs256 = hs256Verifier(secret)
  function verify<T>(token: string, tokenType: string): T | undefined {
    const claims = verifyHs256(token, nowSeconds())
    return claims?.token_type === tokenType && typeof claims.user_id === 'number' ? (claims as T) : undefined
  }

  // A learner sends one access token hundreds of times: remembered until it expires, bounded against a flood.
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

  const accessClaims = (user: TokenUser) => ({
    token_type: 'access',
    user_id: user.id,
    username: user.username,
    is_admin: user.is_admin,
    is_marker: user.is_marker === true,
    ...(user.sessionId && { sid: user.sessionId }),
    ...(user.institute && { institute: user.institute }),
    ...(user.is_platform_admin && { is_platform_admin: true }),
  })

  return {
    accessTtl,
    refreshTtl,
    sessionMaxTtl,
    signAccess: (user: TokenUser) => sign(accessClaims(user), accessTtl, randomUUID()),
    /** A platform admin's admin token of one institute (docs/decisions/097): no login, no refresh. */
    signActAs: (user: Pick<TokenUser, 'id' | 'username'>, institute: string) =>
      sign(
        { ...accessClaims({ ...user, is_admin: true, institute, is_platform_admin: true }), acting: true },
        ACT_AS_SECONDS,
        randomUUID(),
      ),
    async signRefresh(userId: number, familyId: string, ttl = refreshTtl, institute?: string) {
      const jti = randomUUID()
      const claims = { token_type: 'refresh', user_id: userId, family_id: familyId, ...(institute && { institute }) }
      const token = await sign(claims, ttl, jti)
      return { token, jti, expiresAt: (nowSeconds() + ttl) * 1000 }
    },
    verifyAccess: verifyAccessCached,
    verifyRefresh: async (token: string) => verify<RefreshClaims>(token, 'refresh'),
  }
}

export type TokenSigner = ReturnType<typeof createTokenSigner>
