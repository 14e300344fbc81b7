import { liveMessages, messages, type Leaderboard, type LeaderboardStatus } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toScore } from '../questions/scoring'
import { attemptColumns, findLatestRankedDeadline, type AttemptLifecycle } from '../attempts/attempts.service'
import { hasPaidAccess } from '../accounts/paid-access.repository'
import { paidAccessRequired } from '../accounts/paid-access'
import { scheduleAnnouncements } from './announcements.repository'
import { nationalRanksOf, readBoard, rerank, standingOf } from '../outcomes/outcomes.service'
import {
  deleteRegistration,
  findLiveQuiz,
  hasOpenFlagOn,
  listRankedPapers,
  insertRegistration,
  countRankedAttempts,
  findBoardNames,
  type BoardNameRow,
  findNationalTaker,
} from './live.repository'
import {
  challengeWindowClosesAt,
  joinClosed,
  livePhase,
  liveTimes,
  type LiveColumns,
  type LiveTimes,
} from '../attempts/live-window.service'

const notLive = () => new Conflict(liveMessages.notLive)
const quizNotFound = () => new NotFound(messages.quizNotActive)

interface ScheduledQuiz extends LiveColumns {
  id: number
  start_time: number
  end_time: number | null
}

/** The quiz stays open until the common end, so every ranked attempt gets its whole time. */
export function liveScheduleError(quiz: ScheduledQuiz): string | null {
  const times = liveTimes(quiz)
  if (times === null) return null
  if (times.startsAt < quiz.start_time) return liveMessages.startsBeforeQuiz
  if (quiz.end_time !== null && quiz.end_time < times.endsAt) return liveMessages.endsBeforeCommonEnd
  // A join after the common end would be a ranked attempt with no time at all.
  if (times.joinEndsAt > times.endsAt) return liveMessages.joinAfterEnd
  return null
}

export async function followLiveSchedule(
  trx: Kysely<DB>,
  before: ScheduledQuiz | null,
  after: ScheduledQuiz,
  now: number,
) {
  const was = before && liveTimes(before)
  const is = liveTimes(after)
  const windowMoved = was?.startsAt !== is?.startsAt || was?.joinEndsAt !== is?.joinEndsAt
  if (before !== null && windowMoved) await rerank(trx, after.id, is)
  if (windowMoved || was?.endsAt !== is?.endsAt)
    await scheduleAnnouncements(
      trx,
      after.id,
      is && { startsAt: is.startsAt, durationMinutes: after.duration_minutes },
      now,
    )
}

/** A mock taken back to a draft (docs/decisions/048) reminds nobody: its pending announcements go. */
export async function cancelLiveAnnouncements(trx: Kysely<DB>, quizId: number, now: number) {
  await scheduleAnnouncements(trx, quizId, null, now)
}

const nameOf = (row: BoardNameRow | undefined) =>
  !row || row.show_on_leaderboards === 0 ? liveMessages.anonymousName : row.full_name.trim() || row.username

export function createLiveService({
  database,
  clock,
  lifecycle,
}: Pick<AppContext, 'database' | 'clock'> & { lifecycle: AttemptLifecycle }) {
  const { db } = database

  async function requireLive(quizId: number) {
    const quiz = await findLiveQuiz(db, quizId)
    if (!quiz) throw quizNotFound()
    return { quiz, times: liveTimes(quiz) }
  }

  /** A paid-tier mock is its payers' (and admins'): registering and its leaderboard need what starting it needs. */
  async function requirePaidAccess(quiz: { is_paid_tier: number }, user: TokenUser, now: number) {
    if (quiz.is_paid_tier !== 1) return
    if (!(await hasPaidAccess(db, user.id, now))) throw paidAccessRequired()
  }

  async function register(user: TokenUser, quizId: number) {
    const now = clock.now()
    const { quiz, times } = await requireLive(quizId)
    if (!times) throw notLive()
    await requirePaidAccess(quiz, user, now)
    if (now >= times.joinEndsAt) throw joinClosed()
    await database.transaction((trx) => insertRegistration(trx, quizId, user.id, now))
  }

  async function unregister(user: TokenUser, quizId: number) {
    await requireLive(quizId)
    await database.transaction((trx) => deleteRegistration(trx, quizId, user.id))
  }

  /** Final once nothing can move a rank: challenge window closed, every ranked time over, no flag open. */
  async function isFinal(quiz: { id: number; challenge_days: number }, times: LiveTimes, now: number) {
    if (now < challengeWindowClosesAt(times, quiz.challenge_days)) return false
    const last = await findLatestRankedDeadline(db, quiz.id)
    if (last !== null && now <= last + lifecycle.graceMs) return false
    const papers = await listRankedPapers(db, quiz.id)
    return !(await hasOpenFlagOn(db, [...new Set(papers.flatMap(attemptColumns.revisionIds))]))
  }

  async function statusOf(quiz: { id: number; challenge_days: number }, times: LiveTimes, now: number) {
    const phase = livePhase(times, now)
    if (phase === 'before') return 'upcoming'
    if (phase !== 'after') return 'running'
    return (await isFinal(quiz, times, now)) ? 'final' : 'provisional'
  }

  /** From the common end the snapshot of live/mock-ends.ts, before it the board as it stands (docs/decisions/063). */
  async function leaderboard(user: TokenUser, quizId: number): Promise<Leaderboard> {
    const now = clock.now()
    const { quiz, times } = await requireLive(quizId)
    if (!times) throw new NotFound(liveMessages.notLive)
    await requirePaidAccess(quiz, user, now)
    const phase = livePhase(times, now)
    if (phase !== 'after')
      return {
        status: phase === 'before' ? 'upcoming' : 'running',
        participants: await countRankedAttempts(db, quizId),
        top: [],
        me: null,
      }
    const board = await readBoard(db, quizId, times.startsAt)
    const names = await findBoardNames(
      db,
      board.top.map((entry) => entry.user_id),
    )
    const standing = await standingOf(db, quizId, user.id)
    const status: LeaderboardStatus = (await isFinal(quiz, times, now)) ? 'final' : 'provisional'
    const national = await nationalRanks(quizId, [
      ...board.top.map((entry) => entry.score_hundredths),
      ...(standing ? [standing.score] : []),
    ])
    return {
      status,
      participants: board.participants,
      top: board.top.map((entry) => ({
        rank: entry.rank,
        name: nameOf(names.get(entry.user_id)),
        score: toScore(entry.score_hundredths),
        ...(national && { national_rank: national.get(entry.score_hundredths) ?? null }),
      })),
      me: standing && {
        rank: standing.rank,
        percentile: standing.percentile,
        score: toScore(standing.score),
        ...(national && { national_rank: national.get(standing.score) ?? null }),
      },
    }
  }

  /** A national mock's copy: each score's rank across the institutes taking part; undefined for other quizzes. */
  async function nationalRanks(quizId: number, scores: number[]) {
    const taker = await findNationalTaker(db, quizId)
    return taker && nationalRanksOf(db, taker.national_mock_id, scores)
  }

  /**
   * A live quiz's board state as nobody in particular sees it (the platform's national board, which has no learner):
   * its status, and before the end the attempts counted so far. Run in the quiz's institute's scope.
   */
  async function boardState(quizId: number): Promise<{ status: LeaderboardStatus; participants: number }> {
    const now = clock.now()
    const { quiz, times } = await requireLive(quizId)
    if (!times) throw new NotFound(liveMessages.notLive)
    const status = await statusOf(quiz, times, now)
    return {
      status,
      participants: status === 'upcoming' || status === 'running' ? await countRankedAttempts(db, quizId) : 0,
    }
  }

  return { register, unregister, leaderboard, statusOf, boardState }
}

export type LiveService = ReturnType<typeof createLiveService>
