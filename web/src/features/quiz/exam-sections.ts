import type { AttemptSection } from '@quiz/contracts'

// A sectioned paper on the exam screen (API.md "Papers", WEB.md "Sections on the exam screen"). Pure rules: which
// section a question is in, which sections may be seen and answered, and how long the current one has left.

/** Tabs and per-section paging for a paper of several sections or a timed one; any other paper looks as before. */
export const isSectioned = (sections: AttemptSection[] | undefined): sections is AttemptSection[] =>
  !!sections && (sections.length > 1 || sections.some((section) => section.time_limit_minutes !== null))

/** Timed sections are taken in order (either every section has a limit or none has). */
export const isTimed = (sections: AttemptSection[]) =>
  sections.length > 0 && sections.every((section) => section.time_limit_minutes !== null)

/** The section (its index) that holds question `number` (from 1). */
export function sectionIndexOf(sections: AttemptSection[], number: number): number {
  const index = sections.findIndex((section) => number >= section.first && number < section.first + section.count)
  return index === -1 ? 0 : index
}

/** In a timed paper, the section being taken: the first one not closed (-1 once all are). */
export const openIndex = (sections: AttemptSection[]) => sections.findIndex((section) => !section.closed)

export type SectionAccess = 'open' | 'closed' | 'locked'

/**
 * Timed: the open section is answered, closed ones may be looked at (read-only), later ones are locked until their
 * turn. Untimed: every section is open.
 */
export function accessOf(sections: AttemptSection[], index: number): SectionAccess {
  if (!isTimed(sections)) return 'open'
  const section = sections[index]
  if (!section) return 'locked'
  if (section.closed) return 'closed'
  return index === openIndex(sections) ? 'open' : 'locked'
}

/** The server's clock, read as the monotonic clock has moved since the attempt was read (never the phone's clock). */
export interface ServerClock {
  /** The server's time (ms) when the attempt was read: its deadline less the seconds it had left. */
  serverMs: number
  /** performance.now() then. */
  at: number
}

export function serverClockOf(attempt: { deadline: string; remaining_seconds: number }, at: number): ServerClock {
  return { serverMs: Date.parse(attempt.deadline) - attempt.remaining_seconds * 1000, at }
}

/**
 * Seconds a section may show: never more than its limit. The device reads the server's clock only to the second
 * and a moment late, so a deadline can look a fraction further off than the limit (6:01 for 6 minutes).
 */
export function withinLimit(section: AttemptSection, seconds: number): number {
  const limit = section.time_limit_minutes
  return Math.max(0, limit === null ? seconds : Math.min(seconds, limit * 60))
}

/** Seconds the section has left at monotonic time `now`, or null when it has no deadline (not open, untimed). */
export function sectionSecondsLeft(
  section: AttemptSection | undefined,
  clock: ServerClock,
  now: number,
): number | null {
  if (!section?.deadline) return null
  const serverNow = clock.serverMs + (now - clock.at)
  return withinLimit(section, (Date.parse(section.deadline) - serverNow) / 1000)
}

/**
 * The sections after the open one's deadline passed, before the server has said so: it is closed, and the next
 * one opens with its own limit from that deadline (the server's answer, read right after, replaces this guess).
 */
export function closeOpenSection(sections: AttemptSection[]): AttemptSection[] {
  const open = openIndex(sections)
  if (open === -1) return sections
  const closedAt = Date.parse(sections[open]!.deadline ?? '')
  return sections.map((section, index) => {
    if (index === open) return { ...section, closed: true }
    if (index === open + 1 && Number.isFinite(closedAt) && section.time_limit_minutes !== null)
      return { ...section, deadline: new Date(closedAt + section.time_limit_minutes * 60_000).toISOString() }
    return section
  })
}

/** Answered questions of each section, for the tabs. */
export function answeredPerSection(
  sections: AttemptSection[],
  questionIds: number[],
  isAnswered: (questionId: number) => boolean,
): number[] {
  return sections.map(
    (section) => questionIds.slice(section.first - 1, section.first - 1 + section.count).filter(isAnswered).length,
  )
}
