import type { Config } from '../config'
import type { Database } from '../db/database'
import type { Clock } from '../lib/clock'
import { RateLimited } from './errors'
import { decrementCounter, deleteCountersBefore, deleteCountersOfKey, incrementCounter } from './rate-limit.repository'

/** One limit: at most `limit` hits per fixed window of `windowSeconds`, counted per key (an address, a username...). */
export interface RateLimitRule {
  /** Names the counter family, e.g. `login:ip`; the full key is `<name>:<subject>`. */
  name: string
  limit: number
  windowSeconds: number
  detail?: string
}

// Every this many hits a process drops the counters of windows that ended over a day ago; the longest window is an hour.
const SWEEP_EVERY = 500
const SWEEP_AGE_MS = 24 * 3600_000

/**
 * Fixed-window counters kept in the database (table rate_limit_counters), so every app process shares them.
 * Each hit is its own statement, outside any request transaction: a refused request still leaves its count
 * (API.md: failed attempts are counted even though the request fails).
 */
export function createRateLimiter({ database, clock }: { database: Database; clock: Clock }) {
  let hitsSinceSweep = 0

  const windowOf = (rule: RateLimitRule) => {
    const windowMs = rule.windowSeconds * 1000
    const now = clock.now()
    const start = Math.floor(now / windowMs) * windowMs
    return { start, retryAfterSeconds: (start + windowMs - now) / 1000 }
  }
  const keyOf = (rule: RateLimitRule, subject: string) => `${rule.name}:${subject}`

  async function sweep() {
    hitsSinceSweep += 1
    if (hitsSinceSweep < SWEEP_EVERY) return
    hitsSinceSweep = 0
    await deleteCountersBefore(database.db, clock.now() - SWEEP_AGE_MS)
  }

  return {
    /**
     * Counts this request, then refuses it with 429 and Retry-After once the window holds more than `limit`
     * hits. Returns `refund`, which gives the hit back when it turned out not to count (the SMS gateway
     * failed, so nothing was sent).
     */
    async hit(rule: RateLimitRule, subject: string): Promise<{ refund: () => Promise<void> }> {
      const window = windowOf(rule)
      const key = keyOf(rule, subject)
      const hits = await incrementCounter(database.db, key, window.start)
      await sweep()
      if (hits > rule.limit) throw new RateLimited(window.retryAfterSeconds, rule.detail)
      return { refund: () => decrementCounter(database.db, key, window.start) }
    },
    /** Forgets a subject's count (a password reset lifts the lock-out that forgotten passwords caused). */
    async clear(rule: RateLimitRule, subject: string): Promise<void> {
      await deleteCountersOfKey(database.db, keyOf(rule, subject))
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

/** Every limit of API.md, built from config.rateLimits (each one a documented setting). */
export function rateLimitRules(limits: Config['rateLimits']) {
  const hour = 3600
  return {
    loginFailuresPerUsername: {
      name: 'login-failures:username',
      limit: limits.loginPerUsername,
      windowSeconds: limits.loginWindowSeconds,
      detail: 'Too many failed login attempts for this account. Please try again later.',
    },
    loginPerIp: { name: 'login:ip', limit: limits.loginPerIp, windowSeconds: limits.loginWindowSeconds },
    refreshPerIp: { name: 'token-refresh:ip', limit: limits.refreshPerIpHour, windowSeconds: hour },
    otpSendPerPhone: {
      name: 'otp-send:phone',
      limit: limits.otpPerPhoneHour,
      windowSeconds: hour,
      detail: 'Too many codes were requested for this phone number. Please try again later.',
    },
    otpSendPerIp: { name: 'otp-send:ip', limit: limits.otpPerIpHour, windowSeconds: hour },
    otpVerifyPerIp: { name: 'otp-verify:ip', limit: limits.accountPerIpHour, windowSeconds: hour },
    checkUsernamePerIp: { name: 'check-username:ip', limit: limits.accountPerIpHour, windowSeconds: hour },
    checkPhonePerIp: { name: 'check-phone:ip', limit: limits.accountPerIpHour, windowSeconds: hour },
    registerPerIp: { name: 'register:ip', limit: limits.accountPerIpHour, windowSeconds: hour },
    passwordResetPerIp: { name: 'password-reset:ip', limit: limits.accountPerIpHour, windowSeconds: hour },
    // Each start and each return asks Khalti or eSewa over the network: unlimited, a script would make us flood them.
    paymentStartPerUser: {
      name: 'payment-start:user',
      limit: limits.paymentStartPerUserHour,
      windowSeconds: hour,
    },
    paymentReturnPerIp: { name: 'payment-return:ip', limit: limits.paymentReturnPerIpHour, windowSeconds: hour },
  } satisfies Record<string, RateLimitRule>
}

export type RateLimitRules = ReturnType<typeof rateLimitRules>
