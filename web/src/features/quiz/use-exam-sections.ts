import type { AttemptSection, QuizAttempt } from '@quiz/contracts'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../api/api-error'
import {
  accessOf,
  closeOpenSection,
  isSectioned,
  isTimed,
  openIndex,
  sectionIndexOf,
  sectionSecondsLeft,
  serverClockOf,
  type ServerClock,
  withinLimit,
} from './exam-sections'
import { nextSection, onDroppedAnswers, startOrResumeAttempt } from './quiz.api'
import { AUTO_SUBMIT_AT_SECONDS, useCountdown } from './use-countdown'

/** The attempt's sections (API.md: the attempt carries them; a paper from before sections has none). */
export const sectionsOf = (session: QuizAttempt | null) =>
  (session?.attempt as { sections?: AttemptSection[] } | undefined)?.sections

/** After a section's deadline, the server is asked for the next one's clock a little later, once it has closed it. */
const REFRESH_AFTER_CLOSE_MS = 1500

interface PaperState {
  attemptId: number
  sections: AttemptSection[]
  /** Seconds the open section had left when these sections were read (null: none open, or untimed). */
  start: number | null
}

/** From an attempt as the server sends it: its remaining seconds less the later sections' share of them. */
function fromAttempt(attempt: QuizAttempt['attempt'], sections: AttemptSection[]): PaperState {
  const open = sections[openIndex(sections)]
  const start = open?.deadline
    ? withinLimit(open, attempt.remaining_seconds - (Date.parse(attempt.deadline) - Date.parse(open.deadline)) / 1000)
    : null
  return { attemptId: attempt.id, sections, start }
}

interface ExamSectionsOptions {
  quizId: number
  session: QuizAttempt | null
  /** The attempt is in progress: the section clock runs. */
  running: boolean
  number: number
  goTo: (number: number) => void
  /** The last timed section's time is over: the paper is handed in. */
  onLastTimeUp: () => void
  /**
   * Sends what the learner answered and waits until the server holds it (false: it could not get through). "Next
   * section" waits on it: the server drops whatever reaches it after the section closed.
   */
  saveAnswers: () => Promise<boolean>
}

/**
 * The sections of the attempt on screen: null for a paper without them (the screen stays as it was). For timed
 * papers the current section's countdown, its end (closed, the next one opened), "Next section" and the answers
 * the server dropped because their section was no longer open.
 */
export function useExamSections({
  quizId,
  session,
  running,
  number,
  goTo,
  onLastTimeUp,
  saveAnswers,
}: ExamSectionsOptions) {
  const [paper, setPaper] = useState<PaperState | null>(null)
  const [dropped, setDropped] = useState<number[]>([])
  const [moving, setMoving] = useState<'idle' | 'sending' | 'failed' | 'unsaved'>('idle')
  const attemptId = session?.attempt.id ?? null
  const questionIds = useMemo(() => session?.questions.map((question) => question.id) ?? [], [session])

  // A new attempt's sections, as the server sent them.
  const sessionSections = sectionsOf(session)
  if (session && isSectioned(sessionSections) && paper?.attemptId !== session.attempt.id) {
    setPaper(fromAttempt(session.attempt, sessionSections))
  }

  // The server's clock as the monotonic clock has moved since the attempt was read: a section opened by "Next
  // section" has a deadline on the server's clock, never on the phone's.
  const clock = useRef<(ServerClock & { attemptId: number }) | null>(null)
  useEffect(() => {
    if (session && clock.current?.attemptId !== session.attempt.id)
      clock.current = { ...serverClockOf(session.attempt, performance.now()), attemptId: session.attempt.id }
  }, [session])
  const withStart = (sections: AttemptSection[]): PaperState | null => {
    if (attemptId === null) return null
    const open = sections[openIndex(sections)]
    const start = open && clock.current ? sectionSecondsLeft(open, clock.current, performance.now()) : null
    return { attemptId, sections, start }
  }

  const refresh = useCallback(() => {
    if (attemptId === null) return
    startOrResumeAttempt(quizId).then(
      (fresh) => {
        const sections = sectionsOf(fresh)
        if (fresh.attempt.id !== attemptId || !isSectioned(sections)) return
        clock.current = { ...serverClockOf(fresh.attempt, performance.now()), attemptId }
        setPaper(fromAttempt(fresh.attempt, sections))
      },
      () => undefined,
    )
  }, [attemptId, quizId])

  // A save whose answers the server dropped: their section had closed (or not opened) on the server.
  useEffect(
    () =>
      onDroppedAnswers(quizId, (ids) => {
        const numbers = ids.map((id) => questionIds.indexOf(id) + 1).filter((n) => n > 0)
        setDropped((earlier) => [...new Set([...earlier, ...numbers])].sort((a, b) => a - b))
        refresh()
      }),
    [quizId, refresh, questionIds],
  )

  const sections = paper?.attemptId === attemptId ? paper.sections : null
  const timed = sections !== null && isTimed(sections)
  const open = timed ? openIndex(sections) : -1
  const openSection = open >= 0 ? sections![open] : undefined
  const startKey = `${attemptId}:${open}:${openSection?.deadline ?? ''}`

  const goToRef = useRef(goTo)
  const lastTimeUp = useRef(onLastTimeUp)
  useEffect(() => {
    goToRef.current = goTo
    lastTimeUp.current = onLastTimeUp
  })

  const expire = () => {
    if (!sections || open === -1) return
    if (open === sections.length - 1) {
      lastTimeUp.current()
      return
    }
    const next = closeOpenSection(sections)
    setPaper(withStart(next))
    goToRef.current(next[open + 1]!.first)
    setTimeout(refresh, REFRESH_AFTER_CLOSE_MS)
  }
  // A section closes at its deadline, as on the server: closed a second early, the next one would open with its
  // limit from that deadline and show a second more than its limit (6:01 for 6 minutes). The last section's end is
  // the attempt's, handed in at 1 s like the attempt (SPEC.md).
  const last = sections !== null && open === sections.length - 1
  const secondsLeft = useCountdown(running && timed ? (paper?.start ?? null) : null, expire, {
    key: startKey,
    expireAtSeconds: last ? AUTO_SUBMIT_AT_SECONDS : 0,
  })

  // A timed paper never shows a question of a section not yet open (a reload with ?q= of a later one, say).
  const numberAccess = sections ? accessOf(sections, sectionIndexOf(sections, number)) : 'open'
  // Opening the screen (a reload, a second device) lands in the open section, not in a closed one.
  const placed = useRef<number | null>(null)
  useEffect(() => {
    if (!openSection || attemptId === null) return
    const opening = placed.current !== attemptId
    placed.current = attemptId
    if (numberAccess === 'locked' || (opening && numberAccess === 'closed')) goToRef.current(openSection.first)
  }, [numberAccess, openSection, attemptId])

  const moveOn = async () => {
    if (!sections || open === -1) return
    setMoving('sending')
    if (!(await saveAnswers())) {
      setMoving('unsaved')
      return
    }
    try {
      const result = await nextSection(quizId)
      setPaper(withStart(result.sections))
      const now = openIndex(result.sections)
      if (now !== -1) goToRef.current(result.sections[now]!.first)
      setMoving('idle')
    } catch (error) {
      // 409: the section had already closed on the server; its answer says where the paper is now.
      if (error instanceof ApiError && error.status === 409) {
        setMoving('idle')
        refresh()
      } else setMoving('failed')
    }
  }

  if (!sections) return null
  const viewing = sectionIndexOf(sections, number)
  return {
    sections,
    timed,
    open,
    viewing,
    secondsLeft: timed ? secondsLeft : null,
    canAnswer: (n: number) => accessOf(sections, sectionIndexOf(sections, n)) === 'open',
    canVisit: (n: number) => accessOf(sections, sectionIndexOf(sections, n)) !== 'locked',
    /** "Next section" is offered while a timed paper has a section after the open one. */
    canMoveOn: timed && open !== -1 && open < sections.length - 1,
    moveOn,
    moving,
    dropped,
  }
}

export type ExamSections = NonNullable<ReturnType<typeof useExamSections>>
