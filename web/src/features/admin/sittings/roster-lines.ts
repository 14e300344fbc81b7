import { phoneInListing } from '@quiz/contracts/rules/identity'
import type { Roster, RosterInput, SittingSet } from './sittings.api'

/** One roster line as the admin edits it: who (a username or phone number), and a roll number and set or blank. */
export interface RosterRow {
  key: number
  who: string
  name: string
  roll: string
  set: SittingSet | ''
}

let nextKey = 1
export const row = (who: string, roll = '', set: SittingSet | '' = '', name = ''): RosterRow => ({
  key: nextKey++,
  who,
  name,
  roll,
  set,
})

export const rowsOf = (roster: Roster): RosterRow[] =>
  roster.roster.map((entry) => row(entry.user.username, String(entry.roll_number), entry.set, entry.user.full_name))

/**
 * Pasted lines, one learner a line: the username or phone number, then optionally (after a tab, comma or
 * semicolon, as a spreadsheet's columns paste) the roll number and the set.
 */
export function parseRosterLines(text: string, sets: readonly SittingSet[]): RosterRow[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.split(/[\t,;]/).map((cell) => cell.trim()))
    .filter((cells) => cells[0])
    .map(([who, roll = '', set = '']) => {
      const letter = set.toUpperCase() as SittingSet
      return row(who!, /^\d+$/.test(roll) ? roll : '', sets.includes(letter) ? letter : '')
    })
}

export function toRosterInput(rows: readonly RosterRow[]): RosterInput {
  return {
    learners: rows.map(({ who, roll, set }) => {
      // A phone number however it is written; any other line (a student number of seven digits too) is a username.
      const phone = phoneInListing(who)
      return {
        ...(phone ? { phone_number: phone } : { username: who.trim() }),
        ...(roll.trim() ? { roll_number: Number(roll.trim()) } : {}),
        ...(set ? { set } : {}),
      }
    }),
  }
}

/** The server's messages by the roster line they name (`learners.3.username` is the fourth line). */
export function messagesByLine(errors: Record<string, string[]>): { lines: Map<number, string[]>; other: string[] } {
  const lines = new Map<number, string[]>()
  const other: string[] = []
  for (const [path, messages] of Object.entries(errors)) {
    const match = /^learners\.(\d+)(?:\.|$)/.exec(path)
    if (match) lines.set(Number(match[1]), [...(lines.get(Number(match[1])) ?? []), ...messages])
    else other.push(...messages)
  }
  return { lines, other }
}
