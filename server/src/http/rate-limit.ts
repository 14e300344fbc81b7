import type { Config } from '../config'
import type { Database } from '../db/database'
import type { Clock } from '../lib/clock'
import { clientNetwork } from './client-network'
import { RateLimited } from './errors'
import {
  decrementCounter,
  deleteCountersBefore,
  deleteCountersOfKey,
  deleteCountersWithPrefix,
  findCounter,
  incrementCounter,
} from './rate-limit.repository'

// A sliding window (Cloudflare's estimate): the previous window's hits count by how much of it the span covers.
export interface RateLimitRule {
  name: string
  limit: number
  windowSeconds: number
  detail?: string
  perNetwork?: true
}

// Every this many hits a process drops the counters of windows that ended over a day ago; the longest window is an hour.
const SWEEP_EVERY = 500
const SWEEP_AGE_MS = 24 * 3600_000

// In the database, shared by every process; each hit its own statement, so a refused request still counts (API.md).
export function createRateLimiter({ database, clock }: { database: Database; clock: Clock }) {
  let hitsSinceSweep = 0

  const windowOf = (rule: RateLimitRule) => {
    const windowMs = rule.windowSeconds * 1000
    const now = clock.now()
    const start = Math.floor(now / windowMs) * windowMs
    return { start, windowMs, now }
  }
  const keyOf = (rule: RateLimitRule, subject: string) =>
    `${rule.name}:${rule.perNetwork ? clientNetwork(subject) : subject}`

  async function sweep() {
    hitsSinceSweep += 1
    if (hitsSinceSweep < SWEEP_EVERY) return
    hitsSinceSweep = 0
    await deleteCountersBefore(database.db, clock.now() - SWEEP_AGE_MS)
  }

  // Refuses nothing: for a caller whose refusal depends on more than one counter (the login's).
  async function count(rule: RateLimitRule, subject: string) {
    const { start, windowMs, now } = windowOf(rule)
    const key = keyOf(rule, subject)
    const [current, previous] = await Promise.all([
      incrementCounter(database.db, key, start),
      findCounter(database.db, key, start - windowMs),
    ])
    await sweep()
    const weight = 1 - (now - start) / windowMs
    return {
      hits: previous * weight + current,
      refusal: () =>
        new RateLimited(retryAfterMs(rule.limit, { previous, current, start, windowMs, now }) / 1000, rule.detail),
      refund: () => decrementCounter(database.db, key, start),
    }
  }

  return {
    async hit(rule: RateLimitRule, subject: string): Promise<{ refund: () => Promise<void> }> {
      const counted = await count(rule, subject)
      if (counted.hits > rule.limit) throw counted.refusal()
      return counted
    },
    count,
    async clear(rule: RateLimitRule, subject: string): Promise<void> {
      await deleteCountersOfKey(database.db, keyOf(rule, subject))
    },
    async clearPrefix(rule: RateLimitRule, prefix: string): Promise<void> {
      await deleteCountersWithPrefix(database.db, keyOf(rule, prefix))
    },
  }
}

export type RateLimiter = ReturnType<typeof createRateLimiter>

export function rateLimitRules(limits: Config['rateLimits']) {
  const hour = 3600
  return {
    loginFailuresPerUsername: {
      name: 'login-failures:username',
      limit: limits.loginPerUsername,
      windowSeconds: limits.loginWindowSeconds,
      detail: 'Too many failed login attempts for this account. Please try again later.',
    },
    // The same limit per username and address: a stranger's failures lock out their own address, not the owner.
    loginFailuresPerUsernameFrom: {
      name: 'login-failures-from:username-ip',
      limit: limits.loginPerUsername,
      windowSeconds: limits.loginWindowSeconds,
      detail: 'Too many failed login attempts for this account. Please try again later.',
    },
    // Tries from networks without failures on an account already over its total: a distributed guesser's allowance.
    loginFreshNetworksPerUsername: {
      name: 'login-fresh-networks:username',
      limit: limits.loginPerUsername,
      windowSeconds: limits.loginWindowSeconds,
      detail: 'Too many failed login attempts for this account. Please try again later.',
    },
    loginPerIp: {
      name: 'login:ip',
      limit: limits.loginPerIp,
      windowSeconds: limits.loginWindowSeconds,
      perNetwork: true,
    },
    refreshPerIp: { name: 'token-refresh:ip', limit: limits.refreshPerIpHour, windowSeconds: hour, perNetwork: true },
    otpSendPerPhone: {
      name: 'otp-send:phone',
      limit: limits.otpPerPhoneHour,
      windowSeconds: hour,
      detail: 'Too many codes were requested for this phone number. Please try again later.',
    },
    otpSendPerIp: { name: 'otp-send:ip', limit: limits.otpPerIpHour, windowSeconds: hour, perNetwork: true },
    otpVerifyPerIp: { name: 'otp-verify:ip', limit: limits.accountPerIpHour, windowSeconds: hour, perNetwork: true },
    checkUsernamePerIp: {
      name: 'check-username:ip',
      limit: limits.accountPerIpHour,
      windowSeconds: hour,
      perNetwork: true,
    },
    checkPhonePerIp: { name: 'check-phone:ip', limit: limits.accountPerIpHour, windowSeconds: hour, perNetwork: true },
    registerPerIp: { name: 'register:ip', limit: limits.accountPerIpHour, windowSeconds: hour, perNetwork: true },
    passwordResetPerIp: {
      name: 'password-reset:ip',
      limit: limits.accountPerIpHour,
      windowSeconds: hour,
      perNetwork: true,
    },
    // Each start and each return asks Khalti or eSewa over the network: unlimited, a script would make us flood them.
    paymentStartPerUser: {
      name: 'payment-start:user',
      limit: limits.paymentStartPerUserHour,
      windowSeconds: hour,
    },
    paymentReturnPerIp: {
      name: 'payment-return:ip',
      limit: limits.paymentReturnPerIpHour,
      windowSeconds: hour,
      perNetwork: true,
    },
    // Each subscription resolves a name in production and may take push sends: a script must not make thousands.
    pushSubscribePerUser: {
      name: 'push-subscribe:user',
      limit: limits.pushSubscribePerUserHour,
      windowSeconds: hour,
    },
    // Each new picture is a decode of up to 25 megapixels: one learner must not keep the decode gate busy.
    profilePicturePerUser: {
      name: 'profile-picture:user',
      limit: limits.profilePicturePerUserHour,
      windowSeconds: hour,
      detail: 'Too many new profile pictures in an hour. Please try again later.',
    },
  } satisfies Record<string, RateLimitRule>
}

export type RateLimitRules = ReturnType<typeof rateLimitRules>

// While the previous window's weight fades, or, when the current window alone is over, as the current one's fades.
export function retryAfterMs(
  limit: number,
  {
    previous,
    current,
    start,
    windowMs,
    now,
  }: { previous: number; current: number; start: number; windowMs: number; now: number },
): number {
  // A weight w of `hits` lets one more through when hits × w + base + 1 <= limit, i.e. w <= (limit - base - 1) / hits.
  const fadeUntil = (windowStart: number, hits: number, base: number) =>
    windowStart + windowMs * (1 - Math.max(0, limit - base - 1) / hits)
  const at =
    current + 1 <= limit && previous > 0
      ? fadeUntil(start, previous, current)
      : fadeUntil(start + windowMs, Math.max(current, 1), 0)
  return Math.max(0, at - now)
}

export interface RateLimits {
  limiter: RateLimiter
  rules: RateLimitRules
}
