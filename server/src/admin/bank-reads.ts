import {
  fromHundredths,
  type BankFacets,
  type BankList,
  type BankListQuerySchema,
  type BankQuestion,
  type Difficulty,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { DB } from '../db/schema'
import { NotFound } from '../http/errors'
import { findRevisions } from '../questions/question-revisions.repository'
import { blindLearnerFlags } from '../questions/needs-sight.repository'
import { findAnswerKeys, keyedOutcome } from '../questions/answer-keys'
import { parseStoredMaths, richText } from '../maths/rich-text'
import { toQuestionDto } from './question-dto'
import {
  chosenOptionsOf,
  countBank,
  facets,
  findBankQuestion,
  optionCounts,
  pageBank,
  quizzesUsing,
  tagsOf,
} from './bank.repository'

type BankQuery = z.output<typeof BankListQuerySchema>

export const questionNotFound = () => new NotFound('Question not found.')
/** Where a question was copied from; `update_available` is the platform's to tell (./platform-source.ts). */
const copyOf = (row: { copied_from_question_id: number | null; copied_from_revision: number | null }) => ({
  copied_from:
    row.copied_from_question_id === null || row.copied_from_revision === null
      ? null
      : { platform_question_id: row.copied_from_question_id, revision: row.copied_from_revision },
  update_available: false,
})
const ratio = (right: number, responses: number) =>
  responses < 1 ? null : Math.round((right / responses) * 10_000) / 10_000

// Dropped with full marks: right; dropped with `exclude`: in neither figure (docs/decisions/036).
async function keyedResponses(db: Kysely<DB>, questionIds: readonly number[]) {
  const chosen = await chosenOptionsOf(db, questionIds)
  const keys = await findAnswerKeys(
    db,
    chosen.map((row) => row.revision_id),
  )
  const byQuestion = new Map<number, { responses: number; right: number }>()
  for (const row of chosen) {
    const outcome = keyedOutcome(row.id, row.is_correct === 1 ? row.id : null, keys.get(row.revision_id))
    if (outcome === 'excluded') continue
    const figures = byQuestion.get(row.question_id) ?? { responses: 0, right: 0 }
    figures.responses += row.n
    if (outcome === 'correct') figures.right += row.n
    byQuestion.set(row.question_id, figures)
  }
  return byQuestion
}

export async function bankQuestion(trx: Kysely<DB>, questionId: number): Promise<BankQuestion> {
  const row = await findBankQuestion(trx, questionId)
  if (!row) throw questionNotFound()
  const [revisions, keys, tags, used] = await Promise.all([
    findRevisions(trx, [row.revision_id]),
    findAnswerKeys(trx, [row.revision_id]),
    tagsOf(trx, [questionId]),
    quizzesUsing(trx, [questionId]),
  ])
  const revision = revisions.get(row.revision_id)!
  return {
    ...toQuestionDto(questionId, revision, keys.get(row.revision_id)),
    tags: tags.get(questionId) ?? [],
    difficulty: row.difficulty as Difficulty | null,
    source: row.source,
    ...(await blindLearnerFlags(trx, [questionId], [row.revision_id])).of(questionId, row.revision_id),
    used_in: (used.get(questionId) ?? []).map((quiz) => ({
      quiz_id: quiz.id,
      title: { en: quiz.title_en, ne: quiz.title_ne },
    })),
    ...copyOf(row),
  }
}

export async function listBank(db: Kysely<DB>, query: BankQuery): Promise<BankList> {
  const filters = { ...query, unused: query.unused }
  const [count, rows] = await Promise.all([countBank(db, filters), pageBank(db, filters, query.page, query.page_size)])
  const ids = rows.map((row) => row.id)
  const [tags, used, responses, options, sight] = await Promise.all([
    tagsOf(db, ids),
    quizzesUsing(db, ids),
    keyedResponses(db, ids),
    optionCounts(
      db,
      rows.map((row) => row.revision_id),
    ),
    blindLearnerFlags(
      db,
      ids,
      rows.map((row) => row.revision_id),
    ),
  ])
  return {
    count,
    results: rows.map((row) => {
      const figures = responses.get(row.id) ?? { responses: 0, right: 0 }
      return {
        id: row.id,
        type: row.type,
        marks: row.marks === null ? null : fromHundredths(row.marks),
        text: richText({ en: row.text_en, ne: row.text_ne }, parseStoredMaths(row.maths).text, 'admin'),
        topic: row.topic,
        tags: tags.get(row.id) ?? [],
        difficulty: row.difficulty as Difficulty | null,
        source: row.source,
        option_count: options.get(row.revision_id) ?? 0,
        used_in: (used.get(row.id) ?? []).map((quiz) => ({
          quiz_id: quiz.id,
          title: { en: quiz.title_en, ne: quiz.title_ne },
        })),
        responses: figures.responses,
        facility: ratio(figures.right, figures.responses),
        ...sight.of(row.id, row.revision_id),
        ...copyOf(row),
      }
    }),
  }
}

export async function bankFacets(db: Kysely<DB>): Promise<BankFacets> {
  const found = await facets(db)
  const n = (value: number | string | null) => Number(value ?? 0)
  const topics = found.topics.map((row) => ({
    topic: row.topic,
    easy: n(row.easy),
    medium: n(row.medium),
    hard: n(row.hard),
    unrated: n(row.unrated),
    total: n(row.total),
  }))
  return {
    topics,
    tags: found.tags.map((row) => ({ tag: row.name, total: n(row.total) })),
    sources: found.sources.map((row) => ({ source: row.source!, total: n(row.total) })),
    total: topics.reduce((sum, topic) => sum + topic.total, 0),
  }
}
