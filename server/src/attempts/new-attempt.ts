import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { shuffled, type RandomInt } from '../lib/random'
import type { QuestionPapers } from '../questions/question-papers'
import { bankMessages } from '@quiz/contracts'
import { Conflict } from '../http/errors'
import { createCurrentQuestions, type CurrentQuestions, type FixedPaper } from './current-questions'
import { createDrawPools, drawQuestions } from '../questions/draw-questions'
import { passagesOfRevisions } from '../questions/passages.repository'
import { shuffledKeepingPassages } from '../questions/passage-shuffle'
import { stretchedLimitMs } from './section-clock'
import { adaptForScreenReader } from './adapted-paper'
import { currentRevisions, freezeDraw } from '../questions/question-shows.repository'
import type { ShowLog } from '../questions/show-log'
import type { LearnerQuizRow } from './learner-quizzes.repository'
import { noAttemptsLeft, onlineAttempts } from './attempt-rules'
import type { BegunAttempt } from './finish'
import {
  alreadyStartedLive,
  joinClosed,
  livePhase,
  liveTimes,
  rankedDeadline,
  type LivePhase,
} from './live-window.service'

// `min(started_at + duration × (1 + extra/100), end_time)`; 600 ms per percent-minute keeps whole milliseconds.
// A live mock's ranked attempt ends at the common end, stretched alike: docs/decisions/024 "In the code".
function deadlineFor(quiz: LearnerQuizRow, startedAt: number, extraTimePercent: number) {
  const times = liveTimes(quiz)
  if (times && livePhase(times, startedAt) === 'joining') return rankedDeadline(times, quiz, extraTimePercent)
  return Math.min(
    startedAt + quiz.duration_minutes * (60_000 + 600 * extraTimePercent),
    quiz.end_time ?? Number.POSITIVE_INFINITY,
  )
}

// A late joiner's sections are all shortened in proportion, so the last still open (docs/decisions/046).
function sectionShare(quiz: LearnerQuizRow, startedAt: number, extraTimePercent: number, sectionsMs: number) {
  const times = liveTimes(quiz)
  if (!times || livePhase(times, startedAt) !== 'joining' || sectionsMs <= 0) return 1
  return Math.min(1, Math.max(0, (rankedDeadline(times, quiz, extraTimePercent) - startedAt) / sectionsMs))
}

const frozenPicks = (json: string) =>
  new Map(Object.entries(JSON.parse(json) as Record<string, number[]>).map(([item, ids]) => [Number(item), ids]))

function rankedAt(quiz: LearnerQuizRow, startedAt: number) {
  const times = liveTimes(quiz)
  return times === null || livePhase(times, startedAt) === 'joining' ? 1 : 0
}

// The caller has read `attempts` under the learner's lock. The rules: docs/decisions/024 "In the code".
export function newAttemptRefusal(
  phase: LivePhase | null,
  quiz: Pick<LearnerQuizRow, 'allowed_attempts'>,
  attempts: readonly Pick<AttemptRow, 'ranked' | 'mode'>[],
) {
  if (phase === 'closed') return joinClosed()
  if (phase === 'joining' && attempts.some((attempt) => attempt.ranked === 1)) return alreadyStartedLive()
  if (onlineAttempts(attempts).length >= quiz.allowed_attempts) return noAttemptsLeft()
  return null
}

export function createNewAttempts({
  papers,
  random,
  currentQuestions = createCurrentQuestions(),
  shows,
}: {
  papers: QuestionPapers
  random?: RandomInt
  currentQuestions?: CurrentQuestions
  shows: ShowLog
}) {
  const drawPools = createDrawPools()
  const frozenShared = new Map<number, { paper: FixedPaper; draw: string; ids: readonly number[] }>()
  function frozenSharedIds(quizId: number, paper: FixedPaper, draw: string, drawnIds: readonly number[]) {
    const kept = frozenShared.get(quizId)
    if (kept && kept.paper === paper && kept.draw === draw) return kept.ids
    const ids = [...paper.questionIds, ...drawnIds]
    frozenShared.set(quizId, { paper, draw, ids })
    return ids
  }
  async function drawPaper(
    trx: Kysely<DB>,
    quiz: LearnerQuizRow,
    userId: number,
    now: number,
    extraTimePercent: number,
    screenReader: boolean,
  ) {
    const fixed = await currentQuestions.currentPaper(trx, quiz.id, quiz.question_set_version)
    let bySection = fixed.sections.map((section) => section.revisionIds)
    // What every learner of this paper is shown is one set (one row per start); a per-attempt draw's picks are not.
    let shared = fixed.questionIds
    let drawnAlone: number[] = []
    if (fixed.hasDraws) {
      const draws = fixed.sections.flatMap((section) => section.slots.flatMap((slot) => ('draw' in slot ? [slot] : [])))
      const fixedIds = new Set(fixed.questionIds)
      let picks: Map<number, number[]>
      let frozen: string | null = null
      let revisionsRead: Map<number, number> | null = null
      if (quiz.draw_mode === 'frozen' && quiz.frozen_draw) {
        frozen = quiz.frozen_draw
        picks = frozenPicks(quiz.frozen_draw)
      } else {
        picks = await drawQuestions(trx, userId, draws, fixedIds, random, drawPools.poolOf, shows.lastShown)
        // A kept pool may name a question deleted since (a deletion writes no revision): draw again from fresh pools.
        const drawn = [...picks.values()].flat()
        revisionsRead = await currentRevisions(trx, drawn)
        if (revisionsRead.size < drawn.length) {
          drawPools.forget()
          picks = await drawQuestions(trx, userId, draws, fixedIds, random, drawPools.poolOf, shows.lastShown)
          revisionsRead = null
        }
        if (quiz.draw_mode === 'frozen') {
          revisionsRead = null
          const stored = await freezeDraw(trx, quiz.id, JSON.stringify(Object.fromEntries(picks)))
          frozen = stored
          picks = frozenPicks(stored)
        }
      }
      const drawnIds = [...picks.values()].flat()
      const revisionOf = revisionsRead ?? (await currentRevisions(trx, drawnIds))
      if (
        drawnIds.some((id) => !revisionOf.has(id)) ||
        draws.some((slot) => (picks.get(slot.itemId)?.length ?? 0) < slot.draw.count)
      )
        throw new Conflict(bankMessages.paperUnavailable, 'paper_unavailable')
      bySection = fixed.sections.map((section) =>
        section.slots.flatMap((slot) =>
          'revisionId' in slot ? [slot.revisionId] : picks.get(slot.itemId)!.map((id) => revisionOf.get(id)!),
        ),
      )
      if (frozen === null) drawnAlone = drawnIds
      else shared = frozenSharedIds(quiz.id, fixed, frozen, drawnIds)
    }
    shows.recordSet(userId, shared, now)
    if (drawnAlone.length > 0) shows.record(userId, drawnAlone, now)
    // A screen reader's user: the paper without the questions that need sight, its sections' marks rescaled.
    const adapted = screenReader
      ? await adaptForScreenReader(
          trx,
          bySection,
          fixed.sections.map(({ section }) => section),
        )
      : null
    if (adapted) {
      if (adapted.bySection.every((ids) => ids.length === 0))
        throw new Conflict(bankMessages.paperUnavailable, 'paper_unavailable')
      bySection = adapted.bySection
    }
    const sectionsOf = adapted ? adapted.sections : fixed.sections.map(({ section }) => section)
    // A passage's questions stay together and in order under shuffling (docs/decisions/117).
    const passageOf = quiz.shuffle_questions === 1 ? await passagesOfRevisions(trx, bySection.flat()) : null
    const revisionIds =
      passageOf !== null
        ? JSON.stringify(bySection.flatMap((ids) => shuffledKeepingPassages(ids, passageOf, random)))
        : fixed.hasDraws || adapted
          ? JSON.stringify(bySection.flat())
          : fixed.stored.revisionIds
    const timed = fixed.sections.length > 0 && fixed.sections.every((s) => s.section.time_limit_minutes !== null)
    let sections = adapted ? JSON.stringify(adapted.sections) : fixed.stored.untimedSections
    const leftOut = adapted ? { left_out: adapted.leftOut } : {}
    if (timed) {
      const limits = fixed.sections.map(({ section }) =>
        stretchedLimitMs(section.time_limit_minutes!, extraTimePercent),
      )
      const share = sectionShare(
        quiz,
        now,
        extraTimePercent,
        limits.reduce((sum, limit) => sum + limit, 0),
      )
      sections = JSON.stringify(
        sectionsOf.map((section, index) => ({ ...section, limit_ms: Math.floor(limits[index]! * share) })),
      )
    }
    const sectionOpenedAt = timed ? now : null
    if (quiz.shuffle_options !== 1) {
      return { revision_ids: revisionIds, option_order: null, sections, section_opened_at: sectionOpenedAt, ...leftOut }
    }
    const paper = await papers.paperFor(trx, revisionIds)
    const optionOrder = paper.questions.map((question) =>
      shuffled(
        question.learner.options.map((option) => option.id),
        random,
      ),
    )
    return {
      revision_ids: revisionIds,
      option_order: JSON.stringify(optionOrder),
      sections,
      section_opened_at: sectionOpenedAt,
      ...leftOut,
    }
  }

  // Two racing starts take the same number and the unique (user, quiz, number) index lets one in: the limit holds.
  async function begin(
    trx: Kysely<DB>,
    userId: number,
    quiz: LearnerQuizRow,
    number: number,
    now: number,
    extraTimePercent: number,
    screenReader = false,
  ): Promise<BegunAttempt> {
    const paper = await drawPaper(trx, quiz, userId, now, extraTimePercent, screenReader)
    return {
      user_id: userId,
      quiz_id: quiz.id,
      attempt_number: number,
      started_at: now,
      deadline: deadlineFor(quiz, now, extraTimePercent),
      ranked: rankedAt(quiz, now),
      ...paper,
    }
  }

  return { begin }
}

export type NewAttempts = ReturnType<typeof createNewAttempts>
