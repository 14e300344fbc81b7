import type { RateLimiter, RateLimitRules } from './rate-limit'

// A stranger's failures must not lock the owner out (docs/decisions/042): the account's total refuses only addresses
// that have failed on it before, so a right password from an address without failures still passes.
export async function countPasswordTry(
  limiter: RateLimiter,
  rules: Pick<RateLimitRules, 'loginFailuresPerUsername' | 'loginFailuresPerUsernameFrom'>,
  usernameKey: string,
  address: string,
) {
  const fromHere = await limiter.count(rules.loginFailuresPerUsernameFrom, fromKey(usernameKey, address))
  const overall = await limiter.count(rules.loginFailuresPerUsername, usernameKey)
  const lockedHere = fromHere.hits > rules.loginFailuresPerUsernameFrom.limit
  const lockedOverall = overall.hits > rules.loginFailuresPerUsername.limit && fromHere.hits > 1
  const refused = lockedHere || lockedOverall
  return {
    refusal: refused ? (lockedHere ? fromHere : overall).refusal() : null,
    // Set on the one try that first crossed a limit: the lock-out worth recording.
    justLocked:
      refused &&
      (crossed(fromHere.hits, rules.loginFailuresPerUsernameFrom.limit) ||
        crossed(overall.hits, rules.loginFailuresPerUsername.limit))
        ? lockedHere
          ? ('address' as const)
          : ('account' as const)
        : null,
    refund: () => Promise.all([fromHere.refund(), overall.refund()]).then(() => undefined),
  }
}

// Counts may be fractional: rate-limit.ts's sliding window.
const crossed = (hits: number, limit: number) => hits > limit && hits - 1 <= limit

// A reset clears every address's at once by this prefix.
export const fromKey = (usernameKey: string, address: string) => `${usernameKey}@${address}`
export const fromKeyPrefix = (usernameKey: string) => `${usernameKey}@`
