import { randomBytes, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { authMessages, type LoginSession, type RevokedSessions, type TokenPair } from '@quiz/contracts'
import { recordAudit, type AuditActor } from '../audit/audit-log'
import type { Database } from '../db/database'
import type { DB, UserRow } from '../db/schema'
import { admitToInstitute, findMembership, hasAnyRole, type Roles } from '../institutes/memberships.service'
import { FIRST_INSTITUTE_SLUG } from '../db/tenancy'
import { NotAuthenticated, NotFound } from '../http/errors'
import type { RateLimiter, RateLimitRules } from '../http/rate-limit'
import { toIso, type Clock } from '../lib/clock'
import { findUserById, findUserByUsername, usernameKey } from '../accounts/users.repository'
import { hashPassword, verifyPassword } from '../accounts/passwords'
import {
  deleteExpiredOfUser,
  findRefreshToken,
  findRegisteredMockEnd,
  insertRefreshToken,
  markRotated,
  revokeAllOfUser,
  revokeFamily,
} from './refresh-tokens.repository'
import type { LoginClient } from '../http/login-client'
import { clientNetwork } from '../http/client-network'
import { countPasswordTry } from '../http/login-failures'
import type { TokenSigner } from '../http/tokens'
import { deviceName } from './device-name'
import { PLATFORM_SCOPE } from '../http/platform-address'
import { platformSignIn, refreshedFor } from './platform-sign-in'
import {
  deleteEndedLoginSessionsOfUser,
  findLiveLoginSession,
  insertLoginSession,
  findLoginSession,
  listLiveLoginSessions,
  loginAddressesOfUsername,
  touchLoginSession,
} from './login-sessions.repository'

// An unknown username still costs one password verification, so timing does not reveal which usernames exist.
let dummyHash: Promise<string> | undefined
const getDummyHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')))

/** A platform token is no institute's admin or marker (docs/decisions/097). */
const NO_ROLES: Roles = { is_learner: 0, is_admin: 0, is_marker: 0 }

const invalidCredentials = () => new NotAuthenticated(authMessages.invalidCredentials, 'invalid_credentials')
const invalidRefresh = () => new NotAuthenticated(authMessages.invalidRefreshToken)

/** API.md "Live mocks": a learner registered for a mock not yet ended stays signed in through it, with no SMS. */
const REGISTERED_REFRESH_SECONDS = 30 * 24 * 60 * 60

/** A refresh token's life: the default, or through a registered mock's end; never past the login's cap (issue 72). */
async function refreshTtlOf(db: Kysely<DB>, tokens: TokenSigner, userId: number, now: number, signedInAt: number) {
  const mockEnd = await findRegisteredMockEnd(db, userId, now)
  const wanted =
    mockEnd === null
      ? tokens.refreshTtl
      : Math.max(tokens.refreshTtl, REGISTERED_REFRESH_SECONDS, Math.ceil((mockEnd - now) / 1000))
  const left = Math.floor((signedInAt + tokens.sessionMaxTtl * 1000 - now) / 1000)
  return Math.max(0, Math.min(wanted, left))
}

// A rotation continues its login's family, so reuse of any rotated token can revoke everything descended from it.
// `roles`: the account's in the token's institute (docs/decisions/096).
async function issueTokenPair(
  db: Kysely<DB>,
  tokens: TokenSigner,
  user: Pick<UserRow, 'id' | 'username'> & { is_platform_admin?: number },
  roles: Roles,
  now: number,
  familyId: string,
  signedInAt: number,
  institute: string,
): Promise<TokenPair> {
  const ttl = await refreshTtlOf(db, tokens, user.id, now, signedInAt)
  // A login at its cap signs in again (its token would have expired by then: this is the clock's edge).
  if (ttl <= 0) throw invalidRefresh()
  const refresh = await tokens.signRefresh(user.id, familyId, ttl, institute)
  await insertRefreshToken(db, {
    jti: refresh.jti,
    user_id: user.id,
    family_id: familyId,
    expires_at: refresh.expiresAt,
    created_at: now,
  })
  const access = await tokens.signAccess({
    id: user.id,
    username: user.username,
    is_admin: roles.is_admin === 1,
    is_marker: roles.is_marker === 1,
    sessionId: familyId,
    institute,
    is_platform_admin: user.is_platform_admin === 1,
  })
  return { access, refresh: refresh.token }
}

/** `roles`: the account's in the client's institute, as `admitToInstitute` found them. */
export async function startLogin(
  db: Kysely<DB>,
  tokens: TokenSigner,
  user: Pick<UserRow, 'id' | 'username'> & { is_platform_admin?: number },
  roles: Roles,
  now: number,
  client: LoginClient,
): Promise<TokenPair> {
  await deleteExpiredOfUser(db, user.id, now)
  await deleteEndedLoginSessionsOfUser(db, user.id)
  const familyId = randomUUID()
  await insertLoginSession(db, {
    id: familyId,
    user_id: user.id,
    device: deviceName(client.userAgent),
    client_address: client.address,
    created_at: now,
    last_used_at: now,
  })
  return issueTokenPair(db, tokens, user, roles, now, familyId, now, client.institute)
}

// After a password reset all of them, after a password change all but the login it was made from.
// Whether one of the account's logins came from this network: its owner's, most likely (http/login-failures.ts).
export const signedInFrom = (db: Kysely<DB>, key: string) => async (network: string) =>
  (await loginAddressesOfUsername(db, key)).some((address) => clientNetwork(address) === network)

export function revokeAllSessions(db: Kysely<DB>, userId: number, now: number, keepSessionId?: string): Promise<void> {
  return revokeAllOfUser(db, userId, now, keepSessionId)
}

const loginActor = (client: LoginClient): AuditActor => ({ id: null, username: 'anonymous', address: client.address })

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
  async function recordLoginEvent(
    user: Pick<UserRow, 'id' | 'username'>,
    client: LoginClient,
    action: 'login_failed' | 'login_locked',
    scope?: 'address' | 'account',
  ) {
    await recordAudit(database.db, loginActor(client), clock.now(), {
      action,
      entityType: 'user',
      entityId: user.id,
      label: user.username,
      after: { address: client.address, ...(scope && { locked: scope }) },
    })
  }

  return {
    /** `join`: POST /api/institute/join/, which makes a learner's membership where registration is open. */
    async login(
      { username, password }: { username: string; password: string },
      client: LoginClient,
      { join = false }: { join?: boolean } = {},
    ): Promise<TokenPair> {
      await limiter.hit(rules.loginPerIp, client.address)
      // Counted as failures up front and given back on success: concurrent guesses cannot slip past the limit.
      const key = usernameKey(username)
      const tried = await countPasswordTry(limiter, rules, key, client.address, signedInFrom(database.db, key))
      const user = await findUserByUsername(database.db, username)
      if (tried.refusal) {
        if (user && tried.justLocked) await recordLoginEvent(user, client, 'login_locked', tried.justLocked)
        throw tried.refusal
      }
      const passwordMatches = user
        ? await verifyPassword(password, user.password_hash)
        : await verifyPassword(password, await getDummyHash()).then(() => false)
      if (!user || !passwordMatches) {
        // Every failure on an admin account is in the trail; a learner's only when it locks (above).
        if (user && (await findMembership(database.db, user.id, client.instituteId))?.is_admin === 1)
          await recordLoginEvent(user, client, 'login_failed')
        throw invalidCredentials()
      }
      await tried.refund()
      const now = clock.now()
      // docs/decisions/097: on the platform's address, a platform admin's sign-in is the platform's.
      if ((await platformSignIn(database.db, user, client)) === 'platform')
        return database.transaction((trx) =>
          startLogin(trx, tokens, user, NO_ROLES, now, { ...client, institute: PLATFORM_SCOPE }),
        )
      // The membership after the password (API.md "Institutes"): not_a_member tells only who knows the password.
      return database.transaction(async (trx) => {
        const roles = await admitToInstitute(trx, {
          userId: user.id,
          phoneNumber: user.phone_number,
          instituteId: client.instituteId,
          now,
          join,
        })
        return startLogin(trx, tokens, user, roles, now, client)
      })
    },

    // Presenting a token already rotated revokes its whole family.
    async refresh(token: string, client: LoginClient): Promise<TokenPair> {
      await limiter.hit(rules.refreshPerIp, client.address)
      const claims = await tokens.verifyRefresh(token)
      if (!claims || typeof claims.family_id !== 'string') throw invalidRefresh()
      // A token is for one institute: on another's host it is no token (API.md "Institutes").
      const institute = refreshedFor(claims.institute, client)
      if ((claims.institute ?? FIRST_INSTITUTE_SLUG) !== institute) throw invalidRefresh()
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
        // A membership ended since the sign-in ends the login here (docs/decisions/096); the platform's has none.
        const member = institute === PLATFORM_SCOPE ? NO_ROLES : await findMembership(trx, user.id, client.instituteId)
        if (institute !== PLATFORM_SCOPE && !hasAnyRole(member)) return 'invalid'
        const roles = member ?? NO_ROLES
        await touchLoginSession(trx, row.family_id, {
          device: deviceName(client.userAgent),
          clientAddress: client.address,
          now,
        })
        const signedInAt = (await findLoginSession(trx, row.family_id))?.created_at ?? row.created_at
        return issueTokenPair(trx, tokens, user, roles, now, row.family_id, signedInAt, institute)
      })
      // The family's revocation above is committed before this refusal: that write is the point of it.
      if (outcome === 'invalid' || outcome === 'reused') throw invalidRefresh()
      return outcome
    },

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

    async listSessions(userId: number, currentSessionId: string | undefined): Promise<LoginSession[]> {
      const rows = await listLiveLoginSessions(database.db, userId, clock.now())
      return rows.map((row) => ({
        id: row.id,
        device: row.device,
        client_address: row.client_address,
        created_at: toIso(row.created_at),
        last_used_at: toIso(row.last_used_at),
        current: row.id === currentSessionId,
      }))
    },

    async revokeSession(userId: number, sessionId: string, actor: AuditActor): Promise<void> {
      const now = clock.now()
      await database.transaction(async (trx) => {
        const session = await findLiveLoginSession(trx, userId, sessionId, now)
        if (!session) throw new NotFound('Login not found.')
        await revokeFamily(trx, session.id, now)
        await recordAudit(trx, actor, now, {
          action: 'logout',
          entityType: 'user',
          entityId: userId,
          label: actor.username,
          after: { logins: [loginValues(session)] },
        })
      })
    },

    async revokeOtherSessions(
      userId: number,
      currentSessionId: string | undefined,
      actor: AuditActor,
    ): Promise<RevokedSessions> {
      const now = clock.now()
      return database.transaction(async (trx) => {
        const others = (await listLiveLoginSessions(trx, userId, now)).filter(
          (session) => session.id !== currentSessionId,
        )
        if (others.length === 0) return { revoked: 0 }
        await revokeAllOfUser(trx, userId, now, currentSessionId)
        await recordAudit(trx, actor, now, {
          action: 'logout',
          entityType: 'user',
          entityId: userId,
          label: actor.username,
          after: { logins: others.map(loginValues) },
        })
        return { revoked: others.length }
      })
    },
  }
}

const loginValues = (session: { device: string; client_address: string }) => ({
  device: session.device,
  client_address: session.client_address,
})

export type AuthService = ReturnType<typeof createAuthService>
