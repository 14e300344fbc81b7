import { clientNetwork } from './client-network'
import type { RateLimiter, RateLimitRules } from './rate-limit'

type Rules = Pick<
  RateLimitRules,
  'loginFailuresPerUsername' | 'loginFailuresPerUsernameFrom' | 'loginFreshNetworksPerUsername'
>

// A stranger's failures must not lock the owner out, nor rotating networks buy unbounded guesses (decision 042).
export async function countPasswordTry(
  limiter: RateLimiter,
  rules: Rules,
  usernameKey: string,
  address: string,
  signedInFrom: (network: string) => Promise<boolean>,
) {
  const network = clientNetwork(address)
  const fromHere = await limiter.count(rules.loginFailuresPerUsernameFrom, fromKey(usernameKey, network))
  const overall = await limiter.count(rules.loginFailuresPerUsername, usernameKey)
  const lockedHere = fromHere.hits > rules.loginFailuresPerUsernameFrom.limit
  const overTotal = overall.hits > rules.loginFailuresPerUsername.limit
  // Counts may be fractional: "has this network failed here" is a count above 1.
  const fresh =
    !lockedHere && overTotal && fromHere.hits <= 1
      ? await limiter.count(rules.loginFreshNetworksPerUsername, usernameKey)
      : null
  const lockedOverall =
    overTotal &&
    (fresh === null
      ? fromHere.hits > 1
      : fresh.hits > rules.loginFreshNetworksPerUsername.limit && !(await signedInFrom(network)))
  const refused = lockedHere || lockedOverall
  const justCrossed =
    crossed(fromHere.hits, rules.loginFailuresPerUsernameFrom.limit) ||
    crossed(overall.hits, rules.loginFailuresPerUsername.limit) ||
    (fresh !== null && crossed(fresh.hits, rules.loginFreshNetworksPerUsername.limit))
  return {
    refusal: refused ? (lockedHere ? fromHere : (fresh ?? overall)).refusal() : null,
    justLocked: refused && justCrossed ? (lockedHere ? ('address' as const) : ('account' as const)) : null,
    refund: () => Promise.all([fromHere.refund(), overall.refund(), fresh?.refund()]).then(() => undefined),
  }
}

const crossed = (hits: number, limit: number) => hits > limit && hits - 1 <= limit

export const fromKey = (usernameKey: string, network: string) => `${usernameKey}@${network}`
export const fromKeyPrefix = (usernameKey: string) => `${usernameKey}@`
