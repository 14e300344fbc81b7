import { messages, usersMessages, type RegisteredUser, type RegisterRequest } from '@quiz/contracts'
import { revokeAllSessions, signedInFrom } from '../auth/auth.service'
import {
  checkCode,
  consumeRegistrationVerification,
  invalidOtp,
  redeemCode,
  type CodeHasher,
} from '../auth/otp.service'
import { recordAudit, CHANGED } from '../audit/audit-log'
import { hashPassword, verifyPassword } from '../accounts/passwords'
import { passwordProblems } from '../accounts/password-rules'
import type { Kysely } from 'kysely'
import type { Database } from '../db/database'
import type { DB } from '../db/schema'
import { isUniqueViolation } from '../db/errors'
import { mayRegister, redeemInvitation, registrationClosed } from '../institutes/memberships.service'
import { saveMembership } from '../institutes/memberships.service'
import { BadRequest, NotAuthenticated, ValidationFailed, type FieldErrors } from '../http/errors'
import { countPasswordTry, fromKeyPrefix } from '../http/login-failures'
import type { RateLimiter, RateLimitRules } from '../http/rate-limit'
import type { Clock } from '../lib/clock'
import {
  findUserById,
  findUserByPhone,
  insertUser,
  phoneExists,
  updateUser,
  usernameExists,
  usernameKey,
} from '../accounts/users.repository'

async function setPassword(
  trx: Kysely<DB>,
  {
    user,
    passwordHash,
    clientAddress,
    now,
    keepSessionId,
  }: {
    user: { id: number; username: string }
    passwordHash: string
    clientAddress: string
    now: number
    keepSessionId?: string | null
  },
) {
  await updateUser(trx, user.id, { password_hash: passwordHash })
  await revokeAllSessions(trx, user.id, now, keepSessionId ?? undefined)
  await recordAudit(trx, { id: user.id, username: user.username, address: clientAddress }, now, {
    action: keepSessionId === undefined ? 'password_reset' : 'password_change',
    entityType: 'user',
    entityId: user.id,
    label: user.username,
    after: { password: CHANGED, logged_out: keepSessionId ? 'others' : 'all' },
  })
}

export function createUsersService({
  database,
  clock,
  hasher,
  limiter,
  rules,
}: {
  database: Database
  clock: Clock
  hasher: CodeHasher
  limiter: RateLimiter
  rules: RateLimitRules
}) {
  async function takenFields(username: string, phoneNumber: string): Promise<FieldErrors> {
    const errors: FieldErrors = {}
    if (await usernameExists(database.db, username)) errors.username = [usersMessages.usernameTaken]
    if (await phoneExists(database.db, phoneNumber)) errors.phone_number = [usersMessages.phoneTaken]
    return errors
  }

  return {
    async usernameExists(username: string, clientAddress: string): Promise<boolean> {
      await limiter.hit(rules.checkUsernamePerIp, clientAddress)
      return usernameExists(database.db, username)
    },

    async phoneExists(phoneNumber: string, clientAddress: string): Promise<boolean> {
      await limiter.hit(rules.checkPhonePerIp, clientAddress)
      return phoneExists(database.db, phoneNumber)
    },

    /** The account and its learner membership in the institute of the request's host (API.md "Institutes"). */
    async register(body: RegisterRequest, clientAddress: string, instituteId: number): Promise<RegisteredUser> {
      await limiter.hit(rules.registerPerIp, clientAddress)
      // A phone verified on an open institute's host is still no invitation to a closed one.
      if (!(await mayRegister(database.db, instituteId, body.phone_number))) throw registrationClosed()
      const errors = await takenFields(body.username, body.phone_number)
      const problems = passwordProblems(body.password, body.username)
      if (problems.length > 0) errors.password = problems
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)

      // password hashing is slow on purpose: hash before the transaction so no write lock is held meanwhile.
      const passwordHash = await hashPassword(body.password)
      const now = clock.now()
      try {
        const created = await database.transaction(async (trx) => {
          // Deleted in the same transaction as the insert: a refused registration keeps its verification.
          if (!(await consumeRegistrationVerification(trx, body.phone_number, now))) return undefined
          const user = await insertUser(trx, {
            username: body.username,
            phone_number: body.phone_number,
            password_hash: passwordHash,
            created_at: now,
          })
          const invited = await redeemInvitation(trx, {
            userId: user.id,
            phoneNumber: user.phone_number,
            instituteId,
            now,
            asLearner: true,
          })
          if (!invited)
            await saveMembership(trx, {
              userId: user.id,
              instituteId,
              roles: { is_learner: 1, is_admin: 0, is_marker: 0 },
              now,
            })
          await recordAudit(trx, { id: user.id, username: user.username, address: clientAddress }, now, {
            action: 'create',
            entityType: 'user',
            entityId: user.id,
            label: user.username,
            after: { username: user.username, phone_number: user.phone_number, password: CHANGED },
          })
          return user
        })
        if (!created) throw new BadRequest(messages.phoneNotVerified, 'phone_not_verified')
        return created
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        const raced = await takenFields(body.username, body.phone_number)
        throw new ValidationFailed(Object.keys(raced).length > 0 ? raced : { username: [usersMessages.usernameTaken] })
      }
    },

    async resetPassword(
      { phone_number: phoneNumber, otp, password }: { phone_number: string; otp: string; password: string },
      clientAddress: string,
    ): Promise<void> {
      await limiter.hit(rules.passwordResetPerIp, clientAddress)
      const user = await findUserByPhone(database.db, phoneNumber)
      // An unregistered phone has no reset code: it gets the same answer as a wrong code.
      if (!user) throw invalidOtp()
      const check = { dialect: database.dialect, hasher, phoneNumber, purpose: 'reset' as const, code: otp }
      // The code first, its try counted: the password rules must not let a wrong code test usernames (decision 023).
      const codeIsRight = await database.transaction((trx) => checkCode(trx, { ...check, now: clock.now() }))
      if (!codeIsRight) throw invalidOtp()
      const problems = passwordProblems(password, user.username)
      if (problems.length > 0) throw new ValidationFailed({ password: problems })

      const passwordHash = await hashPassword(password)
      const now = clock.now()
      const reset = await database.transaction(async (trx) => {
        const redeemed = await redeemCode(trx, { ...check, now })
        if (!redeemed) return false
        await setPassword(trx, { user, passwordHash, clientAddress, now })
        return true
      })
      if (!reset) throw invalidOtp()
      await limiter.clear(rules.loginFailuresPerUsername, usernameKey(user.username))
      await limiter.clearPrefix(rules.loginFailuresPerUsernameFrom, fromKeyPrefix(usernameKey(user.username)))
      await limiter.clear(rules.loginFreshNetworksPerUsername, usernameKey(user.username))
    },

    async changePassword(
      { id: userId, sessionId }: { id: number; sessionId?: string },
      { current_password: current, password }: { current_password: string; password: string },
      clientAddress: string,
    ): Promise<void> {
      const user = await findUserById(database.db, userId)
      if (!user) throw new NotAuthenticated('The user of this token no longer exists.')
      await limiter.hit(rules.loginPerIp, clientAddress)
      // Counted as a failure up front and given back when right, as at login: parallel guesses cannot slip past.
      const key = usernameKey(user.username)
      const attempt = await countPasswordTry(limiter, rules, key, clientAddress, signedInFrom(database.db, key))
      if (attempt.refusal) throw attempt.refusal
      const errors: FieldErrors = {}
      const currentIsRight = await verifyPassword(current, user.password_hash)
      if (!currentIsRight) errors.current_password = [usersMessages.wrongCurrentPassword]
      else await attempt.refund()
      const problems = passwordProblems(password, user.username)
      if (problems.length > 0) errors.password = problems
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)

      const passwordHash = await hashPassword(password)
      const now = clock.now()
      await database.transaction((trx) =>
        setPassword(trx, { user, passwordHash, clientAddress, now, keepSessionId: sessionId ?? null }),
      )
    },
  }
}

export type UsersService = ReturnType<typeof createUsersService>
