import {
  sittingLimits,
  sittingMessages,
  type Sitting,
  type SittingCreate,
  type SittingList,
  type SittingUpdate,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { changedFields, recordAudit, type UserActor } from '../audit/audit-log'
import { AppError, Conflict, NotFound } from '../http/errors'
import { toIso } from '../lib/clock'
import {
  blankLayout,
  parseSets,
  planSets,
  setLayout,
  setLetters,
  type NumericSizes,
  type SittingSetPlan,
} from './sitting-sets'
import { numericGridSize } from './sheet/numeric-grid'
import { SheetLayoutError } from './sheet/sheet-layout'
import type { PaperQuestion } from '../questions/question-papers'
import { deadlineOf, findSittingView, type SittingsDeps } from './sitting-view'
import {
  countScans,
  countSittingParts,
  deleteSitting,
  findSitting,
  insertSitting,
  listSittings,
  updateSitting,
  type SittingRow,
} from './sittings.repository'

import { createSittingPrinting } from './sitting-printing'
import { createSittingRoster } from './sitting-roster'

async function toSittings(db: Kysely<DB>, rows: readonly SittingRow[]): Promise<Sitting[]> {
  const counts = await countSittingParts(
    db,
    rows.map((row) => row.id),
  )
  return rows.map((row) => {
    const count = counts.get(row.id)!
    return {
      id: row.id,
      quiz_id: row.quiz_id,
      title: { en: row.title_en, ne: row.title_ne },
      held_at: toIso(row.held_at),
      sets: setLetters(parseSets(row.sets)),
      option_labels: row.option_labels,
      question_count: (JSON.parse(row.revision_ids) as number[]).length,
      status: row.status,
      roster_count: count.roster,
      scans: { recorded: count.recorded, needs_review: count.needs_review },
      booklet_pages: row.booklet_pages,
    }
  })
}

/** Refuses a paper that cannot be printed: none, over 200 choice questions, or over 5 options (decision 055). */
function checkPrintable(optionIds: readonly (readonly number[])[], questionIds: readonly number[]) {
  const choiceCount = optionIds.filter((ids) => ids.length > 0).length
  if (optionIds.length === 0 || choiceCount > sittingLimits.questions)
    throw new AppError(409, 'paper_not_printable', sittingMessages.questionCount(choiceCount), undefined, undefined, {
      question_count: choiceCount,
    })
  const wide = optionIds.flatMap((ids, index) =>
    ids.length > sittingLimits.options
      ? [{ number: index + 1, question_id: questionIds[index]!, options: ids.length }]
      : [],
  )
  if (wide.length > 0) throw notPrintable(sittingMessages.tooManyOptions, wide)
}

/** 409 `paper_not_printable` naming the questions a sheet cannot print. */
function notPrintable(message: (numbers: number[]) => string, questions: readonly { number: number }[]) {
  return new AppError(
    409,
    'paper_not_printable',
    message(questions.map((question) => question.number)),
    undefined,
    undefined,
    { questions },
  )
}

/** Each numeric question's grid size (decision 129); a grid wider than a sheet prints -> `paper_not_printable`. */
function numericGrids(questions: readonly PaperQuestion[]): NumericSizes {
  const sizes = questions.map((question) =>
    question.numeric ? numericGridSize(question.numeric.answer, question.numeric.decimals) : undefined,
  )
  const wide = questions.flatMap((question, index) =>
    question.numeric && sizes[index] === null ? [{ number: index + 1, question_id: question.questionId }] : [],
  )
  if (wide.length > 0) throw notPrintable(sittingMessages.gridTooWide, wide)
  return sizes.map((size, index) => size && { ...size, decimals: questions[index]!.numeric!.decimals })
}

/** Refuses plans whose rows and grids do not fit one sheet (each set's, and the blank sheet serving them all). */
function checkSheetsFit(plans: SittingSetPlan[], labels: 'latin' | 'devanagari', questionCount: number) {
  try {
    for (const plan of plans) setLayout(plan, labels, plans.length)
    blankLayout(plans, labels)
  } catch (error) {
    if (!(error instanceof SheetLayoutError)) throw error
    throw new AppError(409, 'paper_not_printable', sittingMessages.sheetFull, undefined, undefined, {
      question_count: questionCount,
    })
  }
}

export function createSittingsService(deps: SittingsDeps) {
  const { database, clock, papers, paperAttempts } = deps
  const { db } = database

  async function getSitting(sittingId: number): Promise<Sitting> {
    const row = await findSitting(db, sittingId)
    if (!row) throw new NotFound(sittingMessages.notFound)
    return (await toSittings(db, [row]))[0]!
  }

  async function createSitting(quizId: number, body: SittingCreate, actor: UserActor): Promise<Sitting> {
    const now = clock.now()
    const id = await database.transaction(async (trx) => {
      const quiz = await paperAttempts.findQuiz(trx, quizId)
      if (!quiz) throw new NotFound(sittingMessages.quizNotFound)
      const drawn = await paperAttempts.drawSittingPaper(trx, quiz, actor.id, now)
      const paper = await papers.paperFor(trx, JSON.stringify(drawn.revisionIds))
      const optionIds = paper.questions.map((question) => question.learner.options.map((option) => option.id))
      checkPrintable(
        optionIds,
        paper.questions.map((question) => question.questionId),
      )
      const title = body.title ?? { en: quiz.title_en, ne: quiz.title_ne }
      const heldAt = Date.parse(body.held_at)
      const passageIds = paper.questions.map((question) => question.passageId)
      const types = paper.questions.map((question) => question.type ?? 'choice')
      const grids = numericGrids(paper.questions)
      const sets = planSets(body.sets ?? 1, drawn.sections, optionIds, undefined, passageIds, types, grids)
      const labels = body.option_labels ?? 'latin'
      if (grids.some((grid) => grid)) checkSheetsFit(sets, labels, optionIds.length)
      const sittingId = await insertSitting(trx, {
        quiz_id: quiz.id,
        title_en: title.en,
        title_ne: title.ne ?? '',
        held_at: heldAt,
        option_labels: labels,
        revision_ids: JSON.stringify(drawn.revisionIds),
        sections: JSON.stringify(drawn.sections),
        sets: JSON.stringify(sets),
        booklet_pages: body.booklet_pages ?? 4,
        created_by: actor.id,
        created_at: now,
      })
      await recordAudit(trx, actor, now, {
        action: 'create',
        entityType: 'sitting',
        entityId: sittingId,
        label: title.en,
        after: {
          quiz_id: quiz.id,
          held_at: toIso(heldAt),
          sets: sets.length,
          option_labels: labels,
          question_count: optionIds.length,
        },
      })
      return sittingId
    })
    return getSitting(id)
  }

  async function listQuizSittings(quizId: number): Promise<SittingList> {
    if (!(await paperAttempts.findQuiz(db, quizId))) throw new NotFound(sittingMessages.quizNotFound)
    const results = await toSittings(db, await listSittings(db, quizId))
    return { count: results.length, results }
  }

  async function updateSittingDetails(sittingId: number, body: SittingUpdate, actor: UserActor): Promise<Sitting> {
    const now = clock.now()
    await database.transaction(async (trx) => {
      const sitting = await findSittingView(trx, sittingId, { lock: database.dialect === 'postgres' })
      const before = {
        title: { en: sitting.title_en, ne: sitting.title_ne },
        held_at: toIso(sitting.held_at),
        status: sitting.status,
        booklet_pages: sitting.booklet_pages,
      }
      const heldAt = body.held_at !== undefined ? Date.parse(body.held_at) : sitting.held_at
      const title = body.title ? { en: body.title.en, ne: body.title.ne ?? '' } : before.title
      const status = body.status ?? sitting.status
      const bookletPages = body.booklet_pages ?? sitting.booklet_pages
      await updateSitting(trx, sittingId, {
        title_en: title.en,
        title_ne: title.ne,
        held_at: heldAt,
        status,
        booklet_pages: bookletPages,
      })
      if (heldAt !== sitting.held_at)
        await paperAttempts.move(trx, sittingId, heldAt, deadlineOf({ ...sitting, held_at: heldAt }))
      const change = changedFields(before, { title, held_at: toIso(heldAt), status, booklet_pages: bookletPages })
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'sitting',
        entityId: sittingId,
        label: title.en,
        ...change,
      })
    })
    return getSitting(sittingId)
  }

  async function removeSitting(sittingId: number, actor: UserActor) {
    const now = clock.now()
    await database.transaction(async (trx) => {
      const sitting = await findSittingView(trx, sittingId, { lock: database.dialect === 'postgres' })
      if ((await countScans(trx, sittingId, 'recorded')) > 0) throw new Conflict(sittingMessages.hasRecordedScans)
      await deleteSitting(trx, sittingId)
      await recordAudit(trx, actor, now, {
        action: 'delete',
        entityType: 'sitting',
        entityId: sittingId,
        label: sitting.title_en,
        before: { quiz_id: sitting.quiz_id, held_at: toIso(sitting.held_at) },
      })
    })
  }

  return {
    createSitting,
    listQuizSittings,
    getSitting,
    updateSittingDetails,
    removeSitting,
    ...createSittingRoster(deps),
    ...createSittingPrinting(deps),
  }
}

export type SittingsService = ReturnType<typeof createSittingsService>
