// The one place deciding whether an attempt's key is withheld: docs/decisions/042, 090.
import type { Kysely } from 'kysely'
import { hasPaidAccess } from '../accounts/paid-access.repository'
import type { DB } from '../db/schema'
import { attemptColumns } from './attempts.repository'
import { liveTimes, practiceNotOpen, rankedDeadline, type LiveColumns, type LivePhase } from './live-window.service'
import {
  findLargestExtraTime,
  findLatestRankedDeadline,
  findWrittenUploadGrace,
  listPapersInProgress,
  listQuestionsOfRevisions,
  listQuizPapers,
  listRecentLiveQuizzes,
  listRecentWrittenAttempts,
  findWrittenAttempt,
  listWithheldPaperAttempts,
} from './withheld-keys.repository'

const MINUTE = 60_000
/** The largest `upload_grace_minutes` a quiz may have (contracts' UploadGraceSchema). */
const MAX_UPLOAD_GRACE = 60 * MINUTE

type LiveQuiz = LiveColumns & { id: number; end_time: number | null }

export type KeyQuiz = LiveQuiz & { status: string; is_paid_tier: number }
export interface KeyAttempt {
  user_id: number
  mode: 'online' | 'paper'
}

export interface Withheld {
  reason: 'live' | 'unpublished' | 'paid_access' | 'written_uploads'
  until: number | null
}

// Written pages and the choice key: docs/decisions/090.
export interface UploadWindowAttempt {
  status: string
  deadline: number
  finished_at: number | null
  mode: 'online' | 'paper'
  upload_grace_minutes: number
}

/** Pages taken until deadline plus upload grace, or submission plus grace if sooner: photos, not writing time. */
export function pagesCloseAt(attempt: UploadWindowAttempt) {
  const submitted = attempt.status === 'finished' && attempt.finished_at !== null
  const from = submitted ? Math.min(attempt.deadline, attempt.finished_at!) : attempt.deadline
  return from + attempt.upload_grace_minutes * MINUTE
}

/** An online attempt with written questions still taking pages: its choice key waits until they close. */
export function uploadsWithheld(attempt: UploadWindowAttempt, hasWritten: boolean, now: number) {
  if (!hasWritten || attempt.mode !== 'online') return null
  const until = pagesCloseAt(attempt)
  return now <= until ? { reason: 'written_uploads' as const, until } : null
}

export function createKeyWithholding({ graceMs }: { graceMs: number }) {
  // While the join window is open a learner with the largest extra time may still join: that deadline counts too.
  async function keyWithheldUntil(db: Kysely<DB>, quiz: LiveQuiz, now: number): Promise<number | null> {
    const times = liveTimes(quiz)
    if (!times) return null
    // Past 300 % extra time plus graces nobody can be sitting or sending pages: no query.
    if (now > times.startsAt + quiz.duration_minutes * 4 * 60_000 + Math.max(graceMs, MAX_UPLOAD_GRACE)) return null
    let last = rankedDeadline(times, quiz, 0)
    const ranked = await findLatestRankedDeadline(db, quiz.id)
    if (ranked !== null) last = Math.max(last, ranked)
    if (now < times.joinEndsAt) last = Math.max(last, rankedDeadline(times, quiz, await findLargestExtraTime(db)))
    // Pages taken after the deadline: no key while a ranked learner may still send one (issue 72).
    const uploadGrace = await findWrittenUploadGrace(db, quiz.id)
    const until = last + Math.max(graceMs, (uploadGrace ?? 0) * MINUTE)
    return now <= until ? until : null
  }

  /** Whether a live mock's key is withheld, with no query until its common end plus grace (a submit storm's case). */
  async function isLiveKeyWithheld(db: Kysely<DB>, quiz: LiveQuiz, now: number) {
    const times = liveTimes(quiz)
    if (!times) return false
    if (now <= rankedDeadline(times, quiz, 0) + graceMs) return true
    return (await keyWithheldUntil(db, quiz, now)) !== null
  }

  /** A live mock's practice attempt (one started after the common end) waits until its key is out: its score tells it. */
  async function practiceRefusal(db: Kysely<DB>, quiz: LiveQuiz, phase: LivePhase | null, now: number) {
    return phase === 'after' && (await isLiveKeyWithheld(db, quiz, now)) ? practiceNotOpen() : null
  }

  /** A hall may sit a draft or a paid-tier quiz on paper: its key waits until the learner could open it online. */
  async function attemptKeyWithheld(
    db: Kysely<DB>,
    attempt: KeyAttempt,
    quiz: KeyQuiz,
    now: number,
  ): Promise<Withheld | null> {
    if (quiz.status !== 'published') return { reason: 'unpublished', until: null }
    const until = await keyWithheldUntil(db, quiz, now)
    if (until !== null) return { reason: 'live', until }
    if (attempt.mode === 'paper' && quiz.is_paid_tier === 1 && !(await hasPaidAccess(db, attempt.user_id, now)))
      return { reason: 'paid_access', until: null }
    return null
  }

  async function withheldAttempts(
    db: Kysely<DB>,
    attempts: readonly (KeyAttempt & { id: number; quiz: KeyQuiz })[],
    now: number,
  ): Promise<Set<number>> {
    const decided = new Map<string, boolean>()
    const withheld = new Set<number>()
    for (const attempt of attempts) {
      const mayWithhold =
        attempt.quiz.live_starts_at !== null || attempt.quiz.status !== 'published' || attempt.quiz.is_paid_tier === 1
      if (!mayWithhold) continue
      const key = `${attempt.quiz.id}:${attempt.mode}`
      let isWithheld = decided.get(key)
      if (isWithheld === undefined) {
        isWithheld = (await attemptKeyWithheld(db, attempt, attempt.quiz, now)) !== null
        decided.set(key, isWithheld)
      }
      if (isWithheld) withheld.add(attempt.id)
    }
    return withheld
  }

  /** Questions practice must not answer: papers being sat, live mocks' withheld keys, own withheld paper attempts. */
  async function withheldQuestions(db: Kysely<DB>, userId: number, now: number): Promise<Set<number>> {
    const papers = await listPapersInProgress(db, userId)
    for (const quiz of await listRecentLiveQuizzes(db, now, graceMs)) {
      if ((await keyWithheldUntil(db, quiz, now)) !== null) papers.push(...(await listQuizPapers(db, quiz.id)))
    }
    const paperAttempts = await listWithheldPaperAttempts(db, userId)
    const paid = paperAttempts.some((attempt) => attempt.status === 'published')
      ? await hasPaidAccess(db, userId, now)
      : false
    for (const attempt of paperAttempts) if (attempt.status !== 'published' || !paid) papers.push(attempt)
    for (const attempt of await listRecentWrittenAttempts(db, userId, now))
      if (uploadsWithheld(attempt, true, now)) papers.push(attempt)
    const revisionIds = new Set(papers.flatMap(attemptColumns.revisionIds))
    return revisionIds.size === 0 ? new Set() : listQuestionsOfRevisions(db, [...revisionIds])
  }

  async function uploadsOpen(db: Kysely<DB>, attemptId: number, now: number) {
    const attempt = await findWrittenAttempt(db, attemptId)
    return attempt !== undefined && uploadsWithheld(attempt, true, now) !== null
  }

  return {
    uploadsOpen,
    keyWithheldUntil,
    isLiveKeyWithheld,
    practiceRefusal,
    attemptKeyWithheld,
    withheldAttempts,
    withheldQuestions,
  }
}

export type KeyWithholding = ReturnType<typeof createKeyWithholding>
