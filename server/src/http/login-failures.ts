import type { RateLimiter, RateLimitRules } from './rate-limit'

/**
 * Counts a try at a user's password up front (given back with `refund` when it was right), per username and
 * address and per username. A stranger's failures must not lock the owner out (docs/decisions/042): an address is
 * refused after its own failures, and the account's total refuses only addresses that have failed on it before, so
 * a right password from an address without failures still passes.
 */
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
    /** The 429 to answer, or null when the try may go on. */
    refusal: refused ? (lockedHere ? fromHere : overall).refusal() : null,
    /** Set on the one try that first crossed a limit: the lock-out worth recording, and which lock it was. */
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

/** Whether this hit took the count over the limit (counts may be fractional: rate-limit.ts's sliding window). */
const crossed = (hits: number, limit: number) => hits > limit && hits - 1 <= limit

/** The per-address counter's subject; a reset clears every address's at once by this prefix. */
export const fromKey = (usernameKey: string, address: string) => `${usernameKey}@${address}`
export const fromKeyPrefix = (usernameKey: string) => `${usernameKey}@`
