import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import {
  messages,
  usersMessages,
  type Language,
  type OtpPurpose,
  type OtpSendResponse,
  type TokenPair,
} from '@quiz/contracts'
import type { Database, Dialect } from '../db/database'
import type { DB } from '../db/schema'
import { BadRequest, Conflict, NotFound, PermissionDenied, RateLimited, ServiceUnavailable } from '../http/errors'
import type { RateLimiter, RateLimitRules } from '../http/rate-limit'
import type { Clock } from '../lib/clock'
import { findUserByPhone, languageOfPhone } from '../accounts/users.repository'
import type { LoginClient } from '../http/login-client'
import { startLogin } from './auth.service'
import { admitToInstitute, mayRegister, registrationClosed } from '../institutes/memberships.service'
import {
  consumeCode,
  consumePhoneVerification,
  deleteCode,
  findCode,
  findCodeForUpdate,
  markPhoneVerified,
  recordFailedTry,
  replaceCodeUnlessCoolingDown,
} from './otp-codes.repository'
import type { SmsSender } from '../sms/sms-sender'
import type { TokenSigner } from '../http/tokens'
import type { InstitutesService } from '../institutes/institutes.service'

export const OTP_TTL_SECONDS = 300
export const OTP_RESEND_SECONDS = 60
/** Wrong tries after which a code is dead, counted on otp/verify and password-reset together. */
export const OTP_MAX_TRIES = 5
export const REGISTER_VERIFICATION_SECONDS = 600

// At most 70 UTF-16 units, one Unicode SMS; the code in Latin digits, which phones offer to fill in.
export const smsText: Record<Language, Record<OtpPurpose, (code: string) => string>> = {
  en: {
    login: (code) => `Your login code is ${code}. It expires in 5 minutes. Do not share it with anyone.`,
    register: (code) => `Your registration code is ${code}. It expires in 5 minutes. Do not share it with anyone.`,
    reset: (code) => `Your password reset code is ${code}. It expires in 5 minutes. Do not share it with anyone.`,
  },
  ne: {
    login: (code) => `तपाईंको लगइन कोड ${code} हो। ५ मिनेटसम्म चल्छ। कसैलाई नदिनुहोस्।`,
    register: (code) => `तपाईंको दर्ता कोड ${code} हो। ५ मिनेटसम्म चल्छ। कसैलाई नदिनुहोस्।`,
    reset: (code) => `पासवर्ड रिसेट कोड ${code} हो। ५ मिनेटसम्म चल्छ। कसैलाई नदिनुहोस्।`,
  },
}

// API.md "OTP SMS name the institute" (decision 099): its name first. A Nepali text is one Unicode SMS of 70 units,
// so the named one is shorter ("Pathshala: login code ...") and a long name is cut to fit; English has room.
const namedNepali: Record<OtpPurpose, (code: string) => string> = {
  login: (code) => `: लगइन कोड ${code}। ५ मिनेटसम्म चल्छ। कसैलाई नदिनुहोस्।`,
  register: (code) => `: दर्ता कोड ${code}। ५ मिनेटसम्म चल्छ। कसैलाई नदिनुहोस्।`,
  reset: (code) => `: रिसेट कोड ${code}। ५ मिनेटसम्म चल्छ। कसैलाई नदिनुहोस्।`,
}

export function otpSmsText(language: Language, purpose: OtpPurpose, code: string, name: string | undefined) {
  if (!name) return smsText[language][purpose](code)
  const rest = language === 'ne' ? namedNepali[purpose](code) : `: ${smsText.en[purpose](code)}`
  const room = Math.min(30, (language === 'ne' ? 70 : 160) - rest.length)
  return `${name.length > room ? `${name.slice(0, room - 1)}…` : name}${rest}`
}

// An HMAC keyed with the server's secret: a copy of the database alone cannot test the million codes offline.
export function createCodeHasher(secret: string) {
  const hash = (phoneNumber: string, purpose: string, code: string) =>
    createHmac('sha256', secret).update(`${phoneNumber}:${purpose}:${code}`).digest('hex')
  return {
    hash,
    matches(stored: string, phoneNumber: string, purpose: string, code: string) {
      const expected = Buffer.from(stored, 'hex')
      const actual = Buffer.from(hash(phoneNumber, purpose, code), 'hex')
      return expected.length === actual.length && timingSafeEqual(expected, actual)
    },
  }
}

export type CodeHasher = ReturnType<typeof createCodeHasher>

// A wrong code on a live row counts a try, which the caller commits even though the request fails.
export async function checkCode(
  trx: Kysely<DB>,
  {
    dialect,
    hasher,
    phoneNumber,
    purpose,
    code,
    now,
  }: {
    dialect: Dialect
    hasher: CodeHasher
    phoneNumber: string
    purpose: OtpPurpose
    code: string
    now: number
  },
): Promise<boolean> {
  const row = await findCodeForUpdate(trx, dialect, phoneNumber, purpose)
  if (!row || row.consumed_at !== null || row.expires_at <= now || row.failed_tries >= OTP_MAX_TRIES) return false
  if (hasher.matches(row.code_hash, phoneNumber, purpose, code)) return true
  await recordFailedTry(trx, phoneNumber, purpose)
  return false
}

// A code redeems one action only.
export async function redeemCode(trx: Kysely<DB>, check: Parameters<typeof checkCode>[1]): Promise<boolean> {
  return (await checkCode(trx, check)) && consumeCode(trx, check.phoneNumber, check.purpose, check.now)
}

export function consumeRegistrationVerification(trx: Kysely<DB>, phoneNumber: string, now: number): Promise<boolean> {
  return consumePhoneVerification(trx, phoneNumber, now)
}

export const invalidOtp = () => new BadRequest(messages.invalidOtp, 'invalid_otp')

export function createOtpService({
  database,
  clock,
  sms,
  tokens,
  hasher,
  limiter,
  rules,
  log,
  institutes,
}: {
  database: Database
  clock: Clock
  sms: SmsSender
  tokens: TokenSigner
  hasher: CodeHasher
  limiter: RateLimiter
  rules: RateLimitRules
  log: FastifyBaseLogger
  institutes: Pick<InstitutesService, 'smsSignature'>
}) {
  const cooldownRefusal = (createdAt: number, now: number) =>
    new RateLimited((createdAt + OTP_RESEND_SECONDS * 1000 - now) / 1000, usersMessages.otpResendWait)

  return {
    async send(
      {
        phone_number: phoneNumber,
        purpose,
        language,
      }: { phone_number: string; purpose: OtpPurpose; language?: Language | undefined },
      clientAddress: string,
      instituteId: number,
    ): Promise<OtpSendResponse> {
      await limiter.hit(rules.otpSendPerIp, clientAddress)
      const accountLanguage = await languageOfPhone(database.db, phoneNumber)
      const registered = accountLanguage !== undefined
      const smsLanguage: Language = language ?? (accountLanguage === 'ne' ? 'ne' : 'en')
      if (purpose === 'register' && registered) {
        throw new Conflict(usersMessages.phoneTaken, 'conflict', { phone_number: [usersMessages.phoneTaken] })
      }
      if (purpose !== 'register' && !registered) throw new NotFound(usersMessages.phoneNotRegistered)
      // A closed institute registers only the phones it invited: refused before any code is made or sent.
      if (purpose === 'register' && !(await mayRegister(database.db, instituteId, phoneNumber)))
        throw registrationClosed()

      const now = clock.now()
      const cooldownStart = now - OTP_RESEND_SECONDS * 1000
      const previous = await findCode(database.db, phoneNumber, purpose)
      if (previous && previous.created_at > cooldownStart) throw cooldownRefusal(previous.created_at, now)
      const phoneHit = await limiter.hit(rules.otpSendPerPhone, phoneNumber)

      const code = randomInt(0, 1_000_000).toString().padStart(6, '0')
      const codeHash = hasher.hash(phoneNumber, purpose, code)
      const stored = await database.transaction((trx) =>
        replaceCodeUnlessCoolingDown(
          trx,
          {
            phone_number: phoneNumber,
            purpose,
            code_hash: codeHash,
            created_at: now,
            expires_at: now + OTP_TTL_SECONDS * 1000,
          },
          cooldownStart,
        ),
      )
      if (!stored) {
        // Another request for this phone and purpose won the race a moment ago.
        await phoneHit.refund()
        const winner = await findCode(database.db, phoneNumber, purpose)
        throw cooldownRefusal(winner?.created_at ?? now, now)
      }

      try {
        const from = await institutes.smsSignature(smsLanguage)
        const text = otpSmsText(smsLanguage, purpose, code, from.name)
        await sms.send({ to: phoneNumber, text, purpose, sender: from.sender })
      } catch (error) {
        // No valid code may outlive a failed send, and the failure costs the learner no cooldown or quota.
        await database.transaction((trx) => deleteCode(trx, phoneNumber, purpose, codeHash))
        await phoneHit.refund()
        log.warn({ err: error, purpose }, 'SMS delivery failed; the code was discarded')
        throw new ServiceUnavailable(usersMessages.smsFailed, 'sms_failed')
      }
      return { detail: usersMessages.otpSent, expires_in: OTP_TTL_SECONDS, resend_in: OTP_RESEND_SECONDS }
    },

    /** `join`: POST /api/institute/join/ with a login code, which makes a learner's membership where it may. */
    async verify(
      { phone_number: phoneNumber, otp, purpose }: { phone_number: string; otp: string; purpose: OtpPurpose },
      client: LoginClient,
      { join = false }: { join?: boolean } = {},
    ): Promise<TokenPair | { verified: true }> {
      await limiter.hit(rules.otpVerifyPerIp, client.address)
      const now = clock.now()
      type Outcome = TokenPair | { verified: true } | 'invalid' | 'admin'
      const outcome = await database.transaction(async (trx): Promise<Outcome> => {
        const valid = await checkCode(trx, { dialect: database.dialect, hasher, phoneNumber, purpose, code: otp, now })
        if (!valid) return 'invalid'
        switch (purpose) {
          case 'login': {
            const user = await findUserByPhone(trx, phoneNumber)
            if (!user) return 'invalid'
            // Before the code is used: a refusal rolls back, and the same code may then join (docs/decisions/096).
            const roles = await admitToInstitute(trx, {
              userId: user.id,
              phoneNumber,
              instituteId: client.instituteId,
              now,
              join,
            })
            if (!(await consumeCode(trx, phoneNumber, purpose, now))) return 'invalid'
            // A code alone is whoever holds the SIM: not enough for an admin (decision 023); said only after a right code.
            if (roles.is_admin === 1) return 'admin'
            return startLogin(trx, tokens, user, roles, now, client)
          }
          case 'register':
            if (!(await consumeCode(trx, phoneNumber, purpose, now))) return 'invalid'
            await markPhoneVerified(trx, phoneNumber, now + REGISTER_VERIFICATION_SECONDS * 1000)
            return { verified: true }
          case 'reset':
            // Not consumed: the password reset itself presents the same code and consumes it.
            return { verified: true }
        }
      })
      if (outcome === 'invalid') throw invalidOtp()
      if (outcome === 'admin') throw new PermissionDenied('Administrators sign in with their username and password.')
      return outcome
    },
  }
}

export type OtpService = ReturnType<typeof createOtpService>
