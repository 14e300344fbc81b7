import type { AttemptSection as AttemptSectionDto, SaveAnswersBody } from '@quiz/contracts'
import { toIso } from '../lib/clock'
import type { AttemptSection } from '../questions/sections'
import { attemptColumns } from './attempts.repository'
import { toScore } from '../questions/scoring'

// The open section follows from the one stored and when it opened, so a deadline passing needs no write.

export interface SectionedAttempt {
  sections: string | null
  current_section: number
  section_opened_at: number | null
  started_at: number
  deadline: number
  revision_ids: string
}

/** A section's limit stretched by the learner's extra time (600 ms per percent-minute, as the attempt's deadline). */
export const stretchedLimitMs = (minutes: number, extraTimePercent: number) =>
  minutes * (60_000 + 600 * extraTimePercent)

export interface SectionClock {
  sections: readonly AttemptSection[]
  timed: boolean
  current: number
  openedAt: number
  /** When the open section closes (capped by the attempt's deadline). */
  closesAt: number
}

const limitMs = (section: AttemptSection) => section.limit_ms ?? (section.time_limit_minutes ?? 0) * 60_000

export function sectionClock(attempt: SectionedAttempt, now: number): SectionClock {
  // Read on every start, fetch and autosave: the ids are parsed only for an attempt stored before sections.
  const sections = attemptColumns.sections(attempt)
  const timed = sections.length > 0 && sections.every((section) => section.time_limit_minutes !== null)
  let current = attempt.current_section
  let openedAt = attempt.section_opened_at ?? attempt.started_at
  if (timed) {
    while (current < sections.length - 1 && now > openedAt + limitMs(sections[current]!)) {
      openedAt += limitMs(sections[current]!)
      current++
    }
  }
  const closesAt = timed ? Math.min(openedAt + limitMs(sections[current]!), attempt.deadline) : attempt.deadline
  return { sections, timed, current, openedAt, closesAt }
}

export function sectionAt(clock: SectionClock, place: number) {
  let end = 0
  for (const [index, section] of clock.sections.entries()) {
    end += section.count
    if (place < end) return index
  }
  return -1
}

export const isOpen = (clock: SectionClock, place: number) => !clock.timed || sectionAt(clock, place) === clock.current

/** Places by paper (its question list, which the paper cache keeps): every autosave and submit asks. */
const placesByPaper = new WeakMap<readonly { questionId: number }[], ReadonlyMap<number, number>>()

export function placesOf(paper: { questions: readonly { questionId: number }[] }): ReadonlyMap<number, number> {
  let places = placesByPaper.get(paper.questions)
  if (!places) {
    places = new Map(paper.questions.map((question, place) => [question.questionId, place]))
    placesByPaper.set(paper.questions, places)
  }
  return places
}

export function toAttemptSections(clock: SectionClock): AttemptSectionDto[] {
  let first = 1
  return clock.sections.map((section, index) => {
    const dto: AttemptSectionDto = {
      title: { en: section.title_en, ne: section.title_ne },
      marks_correct: toScore(section.marks_correct),
      marks_wrong: toScore(section.marks_wrong),
      first,
      count: section.count,
      time_limit_minutes: section.time_limit_minutes,
      deadline: clock.timed && index === clock.current ? toIso(clock.closesAt) : null,
      closed: clock.timed && index < clock.current,
    }
    first += section.count
    return dto
  })
}

/** A body without what concerns closed or unopened sections, and those questions' ids (API.md). */
export function withoutClosedSections<T extends Pick<SaveAnswersBody, 'answers' | 'marked' | 'visited' | 'time_spent'>>(
  clock: SectionClock,
  placeOf: ReadonlyMap<number, number>,
  body: T,
): { body: T; dropped: number[] } {
  if (!clock.timed) return { body, dropped: [] }
  const dropped = new Set<number>()
  const open = (id: number) => {
    const place = placeOf.get(id)
    if (place === undefined || isOpen(clock, place)) return true
    dropped.add(id)
    return false
  }
  const keep = <V>(record: Record<string, V> | undefined) =>
    record && Object.fromEntries(Object.entries(record).filter(([key]) => open(Number(key))))
  return {
    body: {
      ...body,
      answers: keep(body.answers),
      marked: keep(body.marked),
      visited: body.visited?.filter(open),
      time_spent: keep(body.time_spent),
    },
    dropped: [...dropped].sort((a, b) => a - b),
  }
}
