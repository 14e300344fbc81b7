import { nepalMonth } from './nepal-days'

/** Freezes a learner has in each Nepal calendar month (API.md); what is not used is not carried over. */
export const FREEZES_PER_MONTH = 2

export interface StreakInput {
  /** Nepal days (`YYYY-MM-DD`) on which the institute published a daily set, up to today. */
  setDays: readonly string[]
  /** The days whose set the learner finished on that same Nepal day. */
  doneDays: ReadonlySet<string>
  /** Today in Nepal. */
  today: string
}

export interface Streak {
  current: number
  best: number
  freezes_left: number
  today_done: boolean
}

/**
 * The streak as a pure function of the days (docs/decisions/110). Only days with a published set count: a day the
 * institute published nothing breaks no streak. Today, not yet done, breaks nothing either (the learner has till
 * midnight). A missed day spends one of that month's freezes when the learner has a streak to keep (a freeze keeps
 * the streak, it does not add to it); with none left the streak starts again at 0. `best` is the longest ever.
 */
export function computeStreak({ setDays, doneDays, today }: StreakInput): Streak {
  const days = [...new Set(setDays)].filter((day) => day <= today).sort()
  const usedByMonth = new Map<string, number>()
  let current = 0
  let best = 0
  for (const day of days) {
    if (doneDays.has(day)) {
      current += 1
      best = Math.max(best, current)
      continue
    }
    if (day === today) continue
    const month = nepalMonth(day)
    const used = usedByMonth.get(month) ?? 0
    if (current > 0 && used < FREEZES_PER_MONTH) usedByMonth.set(month, used + 1)
    else current = 0
  }
  return {
    current,
    best,
    freezes_left: FREEZES_PER_MONTH - (usedByMonth.get(nepalMonth(today)) ?? 0),
    today_done: doneDays.has(today),
  }
}
