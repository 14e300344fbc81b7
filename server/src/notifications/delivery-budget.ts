import type { AppContext } from '../context'

/** The rate bound (decision 070): rows claimed since the tick began; a freed slot is refilled only within it. */
export function createTickBudget(config: Pick<AppContext['config'], 'deliveryIntervalMs' | 'deliveryMaxPerTick'>) {
  let tickBegan = -Infinity
  let claimedThisTick = 0
  return {
    left: () => config.deliveryMaxPerTick - claimedThisTick,
    spend(rows: number) {
      claimedThisTick += rows
    },
    reset() {
      claimedThisTick = 0
    },
    beginIfDue(force = false) {
      const now = performance.now()
      if (force || now - tickBegan >= config.deliveryIntervalMs) {
        tickBegan = now
        claimedThisTick = 0
      }
    },
  }
}
