import type { FlagQueue, FlagQueueEntry, FlagQueueQuerySchema } from '@quiz/contracts'
import type { z } from 'zod'
import type { AppContext } from '../context'
import { toIso } from '../lib/clock'
import { findAnswerKeys, isKeyedCorrect } from '../questions/answer-keys'
import { findRevisions, richTextsOf } from '../questions/question-revisions.repository'
import { listAttemptsHoldingRevision, listFlaggedRevisions, listFlagsOfRevisions } from './challenges.repository'
import { numericKeyOf } from '../questions/question-revisions.repository'
import type { ScoredQuestion } from '../questions/scoring'
import { itemScores } from './regrade'

const PAGE_SIZE = 20

type Query = z.output<typeof FlagQueueQuerySchema>

const round4 = (value: number) => Math.round(value * 10_000) / 10_000 + 0

/** Pearson's r of two equally long series; null where it is undefined (under 2 values, zero variance). */
function pearson(xs: readonly number[], ys: readonly number[]) {
  const n = xs.length
  if (n < 2) return null
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / n
  const mx = mean(xs)
  const my = mean(ys)
  let sxy = 0
  let sxx = 0
  let syy = 0
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my)
    sxx += (xs[i]! - mx) ** 2
    syy += (ys[i]! - my) ** 2
  }
  return sxx === 0 || syy === 0 ? null : round4(sxy / Math.sqrt(sxx * syy))
}

/** API.md: the admin's queue of flagged question revisions, most flagged first, learners anonymous. */
export function createFlagQueueService({ database }: Pick<AppContext, 'database'>) {
  const { db, dialect } = database

  async function listQueue(query: Query): Promise<FlagQueue> {
    const { count, rows } = await listFlaggedRevisions(db, {
      status: query.status,
      quizId: query.quiz_id,
      limit: PAGE_SIZE,
      offset: (query.page - 1) * PAGE_SIZE,
    })
    const revisionIds = rows.map((row) => row.revision_id)
    const [revisions, flags, keys] = await Promise.all([
      findRevisions(db, revisionIds),
      listFlagsOfRevisions(db, revisionIds, query.status),
      findAnswerKeys(db, revisionIds),
    ])
    const results: FlagQueueEntry[] = []
    for (const row of rows) {
      const revision = revisions.get(row.revision_id)
      if (!revision) continue
      const key = keys.get(revision.id)
      const mine = flags.filter((flag) => flag.revision_id === revision.id)
      const byReason: Record<string, number> = {}
      const proposed: Record<string, number> = {}
      for (const flag of mine) {
        byReason[flag.reason] = (byReason[flag.reason] ?? 0) + 1
        // One key per proposal: an option id, a whole proposed set ("12,15"), or a value in shortest form.
        const proposal =
          flag.proposed_option_id !== null
            ? String(flag.proposed_option_id)
            : flag.proposed_option_ids !== null
              ? (JSON.parse(flag.proposed_option_ids) as number[]).join(',')
              : flag.proposed_value
        if (proposal !== null) proposed[proposal] = (proposed[proposal] ?? 0) + 1
      }
      const quizzes = new Map(
        mine.map((flag) => [flag.quiz_id, { id: flag.quiz_id, title: { en: flag.title_en, ne: flag.title_ne } }]),
      )

      // Item figures over every finished attempt holding the revision, under its current key.
      const holding = await listAttemptsHoldingRevision(db, dialect, revision.id, revision.question_id)
      const authored = revision.options.filter((option) => option.is_correct === 1).map((option) => option.id)
      const authoredAnswer = numericKeyOf(revision)
      const scoredAs: ScoredQuestion = {
        questionId: revision.question_id,
        correctOptionId: authored[0] ?? null,
        type: revision.type,
        correctOptionIds: new Set(authored),
        ...(authoredAnswer && { numeric: { answer: authoredAnswer, decimals: revision.decimals } }),
      }
      const chosen = new Map<number, number>()
      for (const attempt of holding)
        if (attempt.option_id !== null) chosen.set(attempt.option_id, (chosen.get(attempt.option_id) ?? 0) + 1)
      const items = itemScores(holding, revision.id, scoredAs, key)
      const xs = items.map((item) => item.marks)
      const rests = items.map((item) => item.attempt.score_hundredths - item.marks)
      const right = items.filter((item) => item.outcome === 'correct').length
      // A question dropped with `exclude` counts in none of its figures: no facility rather than 0.
      const counted = items.filter((item) => item.outcome !== 'excluded')
      // A multiple question's facility is the mean share of full marks gained, negative marks counting (API.md).
      const facility =
        counted.length === 0
          ? null
          : revision.type === 'multiple'
            ? round4(counted.reduce((sum, item) => sum + item.marks / item.full, 0) / counted.length)
            : round4(right / counted.length)

      const texts = richTextsOf(revision, 'admin')
      results.push({
        question: {
          id: revision.question_id,
          revision_id: revision.id,
          type: revision.type,
          answer: revision.type === 'numeric' ? (key?.answer ?? authoredAnswer) : null,
          text: texts.text,
          options: revision.options.map((option) => ({
            id: option.id,
            text: richTextsOf(option, 'admin').text,
            is_correct: isKeyedCorrect(option.id, option.is_correct === 1, key),
            chosen: chosen.get(option.id) ?? 0,
          })),
        },
        quizzes: [...quizzes.values()],
        flags: { total: mine.length, by_reason: byReason, proposed },
        notes: mine
          .filter((flag) => flag.note !== '')
          .map((flag) => ({
            text: flag.note,
            reason: flag.reason as FlagQueueEntry['notes'][number]['reason'],
            created_at: toIso(flag.created_at),
          })),
        facility,
        discrimination: pearson(xs, rests),
        status: query.status,
      })
    }
    return { count, results }
  }

  return { listQueue }
}

export type FlagQueueService = ReturnType<typeof createFlagQueueService>
