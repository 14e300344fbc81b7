import { describe, expect, it } from 'vitest'
import { addDays, bikramSambat, nepalDay, nepalInstant, nepalMidnight, nepalMonth } from './nepal-days'
import { computeStreak, FREEZES_PER_MONTH } from './streak'

/** A seeded generator (mulberry32): every run draws the same calendars, and a failure names its seed. */
function random(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Calendar {
  seed: number
  setDays: string[]
  done: Set<string>
  today: string
}

/** Runs of 1..120 days starting anywhere in 2080..2087 BS, so many cross a month end; some days have no set. */
function calendars(count: number): Calendar[] {
  const result: Calendar[] = []
  for (let seed = 1; seed <= count; seed++) {
    const next = random(seed)
    const first = addDays('2023-04-14', Math.floor(next() * 365 * 7))
    const length = 1 + Math.floor(next() * 120)
    const setDays: string[] = []
    const done = new Set<string>()
    const doneRate = next()
    for (let i = 0; i < length; i++) {
      const day = addDays(first, i)
      if (next() < 0.1) continue
      setDays.push(day)
      if (next() < doneRate) done.add(day)
    }
    result.push({ seed, setDays, done, today: addDays(first, length - 1) })
  }
  return result
}

const streakOf = ({ setDays, done, today }: Omit<Calendar, 'seed'>) => computeStreak({ setDays, doneDays: done, today })

describe('the streak over random calendars', () => {
  const all = calendars(400)

  it('keeps current within best, best within the days done, and freezes within the month’s two', () => {
    for (const calendar of all) {
      const streak = streakOf(calendar)
      const doneSetDays = calendar.setDays.filter((day) => calendar.done.has(day)).length
      expect(streak.current, `seed ${calendar.seed}`).toBeLessThanOrEqual(streak.best)
      expect(streak.best, `seed ${calendar.seed}`).toBeLessThanOrEqual(doneSetDays)
      expect(streak.freezes_left).toBeGreaterThanOrEqual(0)
      expect(streak.freezes_left).toBeLessThanOrEqual(FREEZES_PER_MONTH)
      expect(streak.today_done).toBe(calendar.done.has(calendar.today))
    }
  })

  it('counts every set day when none was missed, whatever the month ends crossed', () => {
    for (const calendar of all) {
      const streak = streakOf({ ...calendar, done: new Set(calendar.setDays) })
      const days = new Set(calendar.setDays).size
      expect(streak, `seed ${calendar.seed}`).toEqual({
        current: days,
        best: days,
        freezes_left: FREEZES_PER_MONTH,
        today_done: calendar.setDays.includes(calendar.today),
      })
    }
  })

  it('adds exactly one when today’s set is finished, and never loses one for today not done yet', () => {
    for (const calendar of all) {
      if (!calendar.setDays.includes(calendar.today)) continue
      const without = new Set(calendar.done)
      without.delete(calendar.today)
      const before = streakOf({ ...calendar, done: without })
      const after = streakOf({ ...calendar, done: new Set([...without, calendar.today]) })
      expect(after.current, `seed ${calendar.seed}`).toBe(before.current + 1)
      expect(after.freezes_left).toBe(before.freezes_left)
    }
  })

  it('ends at 0 after a missed day with no freeze left, and is then the days done since', () => {
    for (const calendar of all) {
      const streak = streakOf(calendar)
      // Replaying by hand: the last missed day (not today) that found no freeze resets the count.
      const days = [...new Set(calendar.setDays)].sort()
      const used = new Map<string, number>()
      let sinceReset = 0
      for (const day of days) {
        if (calendar.done.has(day)) sinceReset++
        else if (day !== calendar.today) {
          const month = nepalMonth(day)
          if (sinceReset > 0 && (used.get(month) ?? 0) < 2) used.set(month, (used.get(month) ?? 0) + 1)
          else sinceReset = 0
        }
      }
      expect(streak.current, `seed ${calendar.seed}`).toBe(sinceReset)
    }
  })
})

describe('the streak on chosen calendars', () => {
  // 1 Poush 2083 BS is 16 December 2026; Mangsir 2083 (29 days) ends on the 15th.
  const mangsirEnd = '2026-12-15'
  const run = (from: string, days: number) => Array.from({ length: days }, (_, i) => addDays(from, i))

  it('has the Bikram Sambat month end where the calendar puts it', () => {
    expect(bikramSambat(mangsirEnd)).toBe('2083-08-29')
    expect(bikramSambat(addDays(mangsirEnd, 1))).toBe('2083-09-01')
  })

  it('spends a freeze on a missed day and keeps the streak; without a freeze it starts again', () => {
    const setDays = run('2026-12-01', 10)
    const missedOne = new Set(setDays.filter((day) => day !== '2026-12-05'))
    expect(computeStreak({ setDays, doneDays: missedOne, today: '2026-12-10' })).toEqual({
      current: 9,
      best: 9,
      freezes_left: 1,
      today_done: true,
    })
    // Three days missed in one month: two freezes, then the third restarts the streak.
    const missedThree = new Set(setDays.filter((day) => !['2026-12-03', '2026-12-05', '2026-12-07'].includes(day)))
    expect(computeStreak({ setDays, doneDays: missedThree, today: '2026-12-10' })).toEqual({
      current: 3,
      best: 4,
      freezes_left: 0,
      today_done: true,
    })
  })

  it('gives two new freezes on the first of the Nepal month, not carried over', () => {
    const setDays = run('2026-12-10', 12)
    const missed = ['2026-12-12', '2026-12-14', '2026-12-17']
    const doneDays = new Set(setDays.filter((day) => !missed.includes(day)))
    // Two freezes spent in Mangsir, one in Poush: the streak holds across the month end.
    expect(computeStreak({ setDays, doneDays, today: '2026-12-21' })).toMatchObject({
      current: 9,
      freezes_left: 1,
    })
    // Mangsir's unused freeze is not Poush's: the month starts again at two.
    const once = new Set(setDays.filter((day) => day !== '2026-12-12'))
    expect(computeStreak({ setDays, doneDays: once, today: '2026-12-21' }).freezes_left).toBe(2)
  })

  it('spends no freeze before there is a streak to keep', () => {
    const setDays = run('2026-12-01', 4)
    expect(computeStreak({ setDays, doneDays: new Set(['2026-12-04']), today: '2026-12-04' })).toEqual({
      current: 1,
      best: 1,
      freezes_left: 2,
      today_done: true,
    })
  })

  it('does not break on days the institute published no set', () => {
    const setDays = ['2026-12-01', '2026-12-02', '2026-12-06']
    expect(computeStreak({ setDays, doneDays: new Set(setDays), today: '2026-12-06' }).current).toBe(3)
  })
})

describe('Nepal days', () => {
  it('turns at 18:15 UTC, Nepal’s midnight', () => {
    expect(nepalDay(Date.parse('2026-11-27T18:14:59.999Z'))).toBe('2026-11-27')
    expect(nepalDay(Date.parse('2026-11-27T18:15:00.000Z'))).toBe('2026-11-28')
    expect(nepalMidnight('2026-11-28')).toBe(Date.parse('2026-11-27T18:15:00.000Z'))
    expect(nepalInstant('2026-11-28', '05:00')).toBe(Date.parse('2026-11-27T23:15:00.000Z'))
  })

  it('counts a late finish one minute before midnight for that day, and one after for the next', () => {
    const setDays = ['2026-11-27', '2026-11-28']
    const late = nepalDay(nepalInstant('2026-11-27', '23:59'))
    const tooLate = nepalDay(nepalInstant('2026-11-27', '23:59') + 60_000)
    expect(late).toBe('2026-11-27')
    expect(tooLate).toBe('2026-11-28')
    expect(computeStreak({ setDays, doneDays: new Set([late]), today: '2026-11-28' }).current).toBe(1)
    // Finished after midnight: yesterday's set counts for nothing, and a day without a freeze... here one is left.
    expect(
      computeStreak({ setDays: ['2026-11-26', ...setDays], doneDays: new Set(['2026-11-26']), today: '2026-11-28' }),
    ).toMatchObject({ current: 1, freezes_left: 1 })
  })
})
