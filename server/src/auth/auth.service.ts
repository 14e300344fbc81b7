import { randomBytes, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { authMessages, type TokenPair } from '@quiz/contracts'
import type { Database } from '../db/database'
import type { DB, UserRow } from '../db/schema'
import { NotAuthenticated } from '../http/errors'
import type { RateLimiter, RateLimitRules } from '../http/rate-limit'
import type { Clock } from '../lib/clock'
import { findUserById, findUserByUsername, usernameKey } from '../accounts/users.repository'
import { hashPassword, verifyPassword } from '../accounts/passwords'
import {
  deleteExpiredOfUser,
  findRefreshToken,
  insertRefreshToken,
  markRotated,
  revokeAllOfUser,
  revokeFamily,
} from './refresh-tokens.repository'
import type { TokenSigner } from '../http/tokens'

// A login for an unknown username still runs one password verification against this throwaway hash, so the
// answer takes as long as for a known one and does not reveal which usernames exist.
let dummyHash: Promise<string> | undefined
const getDummyHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')))

const invalidCredentials = () => new NotAuthenticated(authMessages.invalidCredentials, 'invalid_credentials')
const invalidRefresh = () => new NotAuthenticated(authMessages.invalidRefreshToken)

/**
 * Signs a token pair and records the refresh token. A new login starts a family; a rotation continues its
 * family, so reuse of any rotated token can revoke everything descended from the same login.
 */
export async function issueTokenPair(
  db: Kysely<DB>,
  tokens: TokenSigner,
  user: Pick<UserRow, 'id' | 'username' | 'is_admin'>,
  now: number,
  familyId: string = randomUUID(),
): Promise<TokenPair> {
  const refresh = await tokens.signRefresh(user.id, familyId)
  await insertRefreshToken(db, {
    jti: refresh.jti,
    user_id: user.id,
    family_id: familyId,
    expires_at: refresh.expiresAt,
    created_at: now,
  })
  const access = await tokens.signAccess({ id: user.id, username: user.username, is_admin: user.is_admin === 1 })
  return { access, refresh: refresh.token }
}

/** Revokes every refresh token of a user (after a password reset), inside the caller's transaction. */
export function revokeAllSessions(db: Kysely<DB>, userId: number, now: number): Promise<void> {
  return revokeAllOfUser(db, userId, now)
}

export function createAuthService({
  database,
  clock,
  tokens,
  limiter,
  rules,
}: {
  database: Database
  clock: Clock
  tokens: TokenSigner
  limiter: RateLimiter
  rules: RateLimitRules
}) {
  return {
    async login(
      { username, password }: { username: string; password: string },
      clientAddress: string,
    ): Promise<TokenPair> {
      await limiter.hit(rules.loginPerIp, clientAddress)
      // Counted as a failure up front and given back on success: concurrent guesses cannot slip past the limit.
      const attempt = await limiter.hit(rules.loginFailuresPerUsername, usernameKey(username))
      const user = await findUserByUsername(database.db, username)
      const passwordMatches = user
        ? await verifyPassword(password, user.password_hash)
        : await verifyPassword(password, await getDummyHash()).then(() => false)
      if (!user || !passwordMatches) throw invalidCredentials()
      await attempt.refund()
      const now = clock.now()
      return database.transaction(async (trx) => {
        await deleteExpiredOfUser(trx, user.id, now)
        return issueTokenPair(trx, tokens, user, now)
      })
    },

    /** Rotates a refresh token. Presenting one that was already rotated revokes its whole family. */
    async refresh(token: string, clientAddress: string): Promise<TokenPair> {
      await limiter.hit(rules.refreshPerIp, clientAddress)
      const claims = await tokens.verifyRefresh(token)
      if (!claims || typeof claims.family_id !== 'string') throw invalidRefresh()
      const now = clock.now()
      const outcome = await database.transaction(async (trx): Promise<TokenPair | 'invalid' | 'reused'> => {
        const row = await findRefreshToken(trx, claims.jti)
        if (!row || row.user_id !== claims.user_id || row.revoked_at !== null || row.expires_at <= now) return 'invalid'
        if (!(await markRotated(trx, row.jti, now))) {
          await revokeFamily(trx, row.family_id, now)
          return 'reused'
        }
        // Fresh claims from the database: a renamed or demoted user's next access token says so.
        const user = await findUserById(trx, row.user_id)
        if (!user) return 'invalid'
        return issueTokenPair(trx, tokens, user, now, row.family_id)
      })
      // The family's revocation above is committed before this refusal: that write is the point of it.
      if (outcome === 'invalid' || outcome === 'reused') throw invalidRefresh()
      return outcome
    },

    /** Logout: revokes every refresh token of the login this one belongs to. Idempotent. */
    async revoke(token: string, clientAddress: string): Promise<void> {
      await limiter.hit(rules.refreshPerIp, clientAddress)
      const claims = await tokens.verifyRefresh(token)
      if (!claims || typeof claims.family_id !== 'string') throw invalidRefresh()
      const now = clock.now()
      await database.transaction(async (trx) => {
        const row = await findRefreshToken(trx, claims.jti)
        await revokeFamily(trx, row?.family_id ?? claims.family_id, now)
      })
    },
  }
}

export type AuthService = ReturnType<typeof createAuthService>
