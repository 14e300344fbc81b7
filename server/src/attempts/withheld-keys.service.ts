// A live mock's key stays out of sight until no ranked learner can still answer (docs/decisions/042): one who
// submits early must not read it off the report card or the practice deck and hand it to one still sitting.
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { attemptColumns } from './attempts.repository'
import { liveTimes, rankedDeadline, type LiveColumns } from './live-window.service'
import {
  findLargestExtraTime,
  findLatestRankedDeadline,
  listPapersInProgress,
  listQuestionsOfRevisions,
  listQuizPapers,
  listRecentLiveQuizzes,
} from './withheld-keys.repository'

type LiveQuiz = LiveColumns & { id: number; end_time: number | null }

export function createKeyWithholding({ graceMs }: { graceMs: number }) {
  // While the join window is open a learner with the largest extra time may still join: that deadline counts too.
  async function keyWithheldUntil(db: Kysely<DB>, quiz: LiveQuiz, now: number): Promise<number | null> {
    const times = liveTimes(quiz)
    if (!times) return null
    // Extra time is at most 300 %: past that bound (plus grace) nobody can be sitting, and no query is needed.
    if (now > times.startsAt + quiz.duration_minutes * 4 * 60_000 + graceMs) return null
    let last = rankedDeadline(times, quiz, 0)
    const ranked = await findLatestRankedDeadline(db, quiz.id)
    if (ranked !== null) last = Math.max(last, ranked)
    if (now < times.joinEndsAt) last = Math.max(last, rankedDeadline(times, quiz, await findLargestExtraTime(db)))
    const until = last + graceMs
    return now <= until ? until : null
  }

  /** Those of the papers the learner is sitting and of every live mock whose key is withheld. */
  async function withheldQuestions(db: Kysely<DB>, userId: number, now: number): Promise<Set<number>> {
    const papers = await listPapersInProgress(db, userId)
    for (const quiz of await listRecentLiveQuizzes(db, now, graceMs)) {
      if ((await keyWithheldUntil(db, quiz, now)) !== null) papers.push(...(await listQuizPapers(db, quiz.id)))
    }
    const revisionIds = new Set(papers.flatMap(attemptColumns.revisionIds))
    return revisionIds.size === 0 ? new Set() : listQuestionsOfRevisions(db, [...revisionIds])
  }

  return { keyWithheldUntil, withheldQuestions }
}

export type KeyWithholding = ReturnType<typeof createKeyWithholding>
