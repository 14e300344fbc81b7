import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import type { AnswerValue, ScoredQuestion } from '../questions/scoring'
import type { AttemptSection } from '../questions/sections'
import { rankChanges } from '../questions/rank-changes'
import { toStanding } from '../questions/standings'
import {
  claimMockEnd,
  claimMockRecheck,
  computeBoard,
  findSnapshot,
  joinSnapshot,
  listDueMockEnds,
  storeBoard,
  type TopEntry,
} from './leaderboards.repository'
import { choiceMarker, markAttempt, typeOf, type Marker } from './markers'
import {
  addToScores,
  adjustTally,
  clearMarksPending,
  countInTally,
  deleteAttempt,
  findCountedAttemptScore,
  findScoredAttempts,
  findTallyStanding,
  insertAttempt,
  listCountedScores,
  markAttemptFinished,
  recountRankTally,
  rederiveRanked,
  type AttemptScore,
  type LiveWindow,
} from './outcomes.repository'

// The one writer of an attempt's outcome, always in the caller's transaction (docs/decisions/062 and 063).

export type { AttemptPart, Marker, MarkInput } from './markers'
export { CHOICE, choiceMarker } from './markers'
export type { AttemptScore } from './outcomes.repository'
export type { TopEntry } from './leaderboards.repository'
export { insertAttempt, findCountedAttemptScore, findTallyStanding } from './outcomes.repository'
export {
  countNationalEntries,
  nationalRanksOf,
  nationalStanding,
  nationalTop,
  type NationalEntry,
} from './national-entries.repository'
import { syncNationalEntries } from './national-entries.repository'

export type BegunAttempt = Omit<
  AttemptRow,
  | 'id'
  | 'status'
  | 'finished_at'
  | 'score_hundredths'
  | 'correct'
  | 'incorrect'
  | 'unanswered'
  | 'late'
  | 'submitted'
  | 'current_section'
  | 'mode'
  | 'sitting_id'
  | 'marks_pending'
  | 'left_out'
> &
  Partial<Pick<AttemptRow, 'mode' | 'sitting_id' | 'left_out'>>

export type FinishTarget = { inProgress: AttemptRow } | { begun: BegunAttempt }

export interface FinishOutcome {
  target: FinishTarget
  questions: readonly ScoredQuestion[]
  sections: readonly AttemptSection[]
  answers: ReadonlyMap<number, AnswerValue>
  finishedAt: number
  late: boolean
  submitted: boolean
  /** A replacement taking back a withdrawn attempt's number: which attempt counts may move, so the tally is recounted. */
  replacing?: boolean
  boardLater?: boolean
}

export type ScoreDelta = Pick<AttemptScore, 'score_hundredths'> & Partial<AttemptScore>

/** The caller names the attempt and what its marks gained; outcomes reads the rest (docs/decisions/062). */
export interface ScoreChange {
  attemptId: number
  delta: ScoreDelta
}

export interface RescoredAttempt {
  id: number
  quiz_id: number
  user_id: number
  before: number
  after: number
}

export function createOutcomes({ markers = [choiceMarker] }: { markers?: readonly Marker[] } = {}) {
  async function finish(trx: Kysely<DB>, how: FinishOutcome): Promise<AttemptRow> {
    const { target } = how
    const part = await markAttempt(trx, markers, {
      attemptId: 'inProgress' in target ? target.inProgress.id : null,
      questions: how.questions,
      sections: how.sections,
      answers: how.answers,
    })
    const { pending, ...score } = part
    const fields = {
      ...score,
      finished_at: how.finishedAt,
      late: how.late ? 1 : 0,
      submitted: how.submitted ? 1 : 0,
      marks_pending: pending ? 1 : 0,
    }
    let finished: AttemptRow
    if ('inProgress' in target) {
      if (!(await markAttemptFinished(trx, target.inProgress.id, fields)))
        throw new Error(`attempt ${target.inProgress.id} was finished twice`)
      finished = { ...target.inProgress, ...fields, status: 'finished' }
    } else {
      finished = await insertAttempt(trx, { ...target.begun, status: 'finished', ...fields })
    }
    for (const marker of markers)
      if (marker.settle && how.questions.some((question) => typeOf(question) === marker.type))
        await marker.settle(trx, finished)
    if (how.replacing) {
      await recountRankTally(trx, finished.quiz_id)
      await refreshBoard(trx, finished.quiz_id)
    } else if ((await countInTally(trx, finished.id)) && !how.boardLater) {
      await joinBoard(trx, finished.quiz_id, finished.score_hundredths ?? 0)
    }
    return finished
  }

  return { finish, rescore, withdraw, rerank, settle }
}

export type Outcomes = ReturnType<typeof createOutcomes>

function netDeltas(changes: readonly ScoreChange[]) {
  const net = new Map<number, AttemptScore>()
  for (const { attemptId, delta } of changes) {
    const sum = net.get(attemptId) ?? { score_hundredths: 0, correct: 0, incorrect: 0, unanswered: 0 }
    sum.score_hundredths += delta.score_hundredths
    sum.correct += delta.correct ?? 0
    sum.incorrect += delta.incorrect ?? 0
    sum.unanswered += delta.unanswered ?? 0
    net.set(attemptId, sum)
  }
  for (const [id, sum] of net)
    if (!sum.score_hundredths && !sum.correct && !sum.incorrect && !sum.unanswered) net.delete(id)
  return net
}

export async function rescore(trx: Kysely<DB>, changes: readonly ScoreChange[]): Promise<RescoredAttempt[]> {
  const deltas = netDeltas(changes)
  if (deltas.size === 0) return []
  const found = new Map((await findScoredAttempts(trx, [...deltas.keys()])).map((attempt) => [attempt.id, attempt]))

  const byDelta = new Map<string, { delta: AttemptScore; ids: number[] }>()
  for (const [id, delta] of deltas) {
    const key = `${delta.score_hundredths}:${delta.correct}:${delta.incorrect}:${delta.unanswered}`
    const group = byDelta.get(key) ?? { delta, ids: [] }
    group.ids.push(id)
    byDelta.set(key, group)
  }
  for (const { delta, ids } of byDelta.values()) await addToScores(trx, delta, ids)

  const tally = new Map<string, { quiz_id: number; score_hundredths: number; learners: number }>()
  const move = (quizId: number, score: number, by: number) => {
    const key = `${quizId}:${score}`
    const bucket = tally.get(key) ?? { quiz_id: quizId, score_hundredths: score, learners: 0 }
    bucket.learners += by
    tally.set(key, bucket)
  }
  const rescored: RescoredAttempt[] = []
  for (const [id, delta] of deltas) {
    const attempt = found.get(id)
    if (!attempt) continue
    const { quiz_id, user_id, score_hundredths: before } = attempt
    rescored.push({ id, quiz_id, user_id, before, after: before + delta.score_hundredths })
    if (!attempt.counted || delta.score_hundredths === 0) continue
    move(quiz_id, before, -1)
    move(quiz_id, before + delta.score_hundredths, +1)
  }
  await adjustTally(trx, [...tally.values()])
  for (const quizId of new Set([...tally.values()].map((bucket) => bucket.quiz_id))) await refreshBoard(trx, quizId)
  return rescored
}

/** Their marks are in their scores already (`rescore`); counting them may change which attempt of a learner counts. */
export async function settle(trx: Kysely<DB>, quizId: number, attemptIds: readonly number[]) {
  if (attemptIds.length === 0) return
  await clearMarksPending(trx, attemptIds)
  await recountRankTally(trx, quizId)
  await refreshBoard(trx, quizId)
}

/** A deleted scan's attempt; practice cards stay (docs/decisions/056 "In the code"). */
export async function withdraw(trx: Kysely<DB>, attempt: AttemptRow) {
  await deleteAttempt(trx, attempt.id)
  if (attempt.status === 'finished' && attempt.ranked === 1) {
    await recountRankTally(trx, attempt.quiz_id)
    await refreshBoard(trx, attempt.quiz_id)
  }
}

export async function rerank(trx: Kysely<DB>, quizId: number, window: LiveWindow) {
  await rederiveRanked(trx, quizId, window)
  await recountRankTally(trx, quizId)
  await refreshBoard(trx, quizId)
}

async function refreshBoard(trx: Kysely<DB>, quizId: number) {
  if (await findSnapshot(trx, quizId)) await storeBoard(trx, quizId, await computeBoard(trx, quizId), undefined)
}

// A counted finish after the board was written (extra time, grace, a late sheet): a score below the top's cutoff
// changes no rank shown there, so only the count moves.
async function joinBoard(trx: Kysely<DB>, quizId: number, score: number) {
  const joined = await joinSnapshot(trx, quizId)
  if (joined && (joined.top_cutoff === null || score >= joined.top_cutoff))
    await storeBoard(trx, quizId, await computeBoard(trx, quizId), undefined)
  else if (joined) await syncNationalEntries(trx, quizId)
}

export const mockEnds = {
  listDue: listDueMockEnds,
  async claim(trx: Kysely<DB>, due: DueMockEnd, now: number) {
    return due.snapshot_starts_at === due.live_starts_at && due.due_at !== null
      ? claimMockRecheck(trx, due.id, due.due_at)
      : claimMockEnd(trx, due.id, due.live_starts_at!, now)
  },
  async writeBoard(trx: Kysely<DB>, quizId: number, now: number, dueAt: number | null) {
    await storeBoard(trx, quizId, await computeBoard(trx, quizId), { takenAt: now, dueAt })
  },
}

export type DueMockEnd = Awaited<ReturnType<typeof listDueMockEnds>>[number]

export interface BoardRead {
  participants: number
  top: readonly TopEntry[]
}

/** The snapshot of this schedule, or (before the end has run) the board as it stands, written nowhere. */
export async function readBoard(db: Kysely<DB>, quizId: number, startsAt: number): Promise<BoardRead> {
  const snapshot = await findSnapshot(db, quizId)
  if (snapshot && snapshot.starts_at === startsAt)
    return { participants: snapshot.participants, top: JSON.parse(snapshot.top) as TopEntry[] }
  return computeBoard(db, quizId)
}

export async function standingOf(db: Kysely<DB>, quizId: number, userId: number) {
  const score = await findCountedAttemptScore(db, userId, quizId)
  if (score == null) return null
  return { score, ...toStanding(score, await findTallyStanding(db, quizId, score)) }
}

export async function rankMovesOf(db: Kysely<DB>, changes: readonly ScoreChange[]) {
  const deltas = netDeltas(changes)
  const attempts = await findScoredAttempts(db, [...deltas.keys()])
  const quizzes = [...new Set(attempts.filter((attempt) => attempt.counted).map((attempt) => attempt.quiz_id))]
  const newScoreOf = new Map(
    attempts.map((attempt) => [attempt.id, attempt.score_hundredths + deltas.get(attempt.id)!.score_hundredths]),
  )
  return rankChanges(await listCountedScores(db, quizzes), newScoreOf)
}
