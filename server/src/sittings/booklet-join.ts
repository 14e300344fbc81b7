import type { SittingSet } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { PaperAttempts } from '../attempts/paper-attempts.service'
import type { DB } from '../db/schema'
import type { QuestionPapers } from '../questions/question-papers'
import { attemptSections } from '../questions/sections'
import type { AppContext } from '../context'
import { createPaperAnswers } from '../written/paper-answers.service'
import { findSittingAttempt, listRecordedPagesOf } from './booklet-pages.repository'
import { findRosterPlaceOf } from './sittings.repository'
import type { SittingView } from './sitting-view'

export interface WrittenQuestion {
  questionId: number
  revisionId: number
}

export interface SittingWritten {
  bySet: Map<SittingSet, Map<number, WrittenQuestion>>
  union: number[]
  hasChoice: boolean
}

export async function writtenOf(db: Kysely<DB>, papers: QuestionPapers, sitting: SittingView): Promise<SittingWritten> {
  const paper = await papers.paperFor(db, sitting.revision_ids)
  const bySet = new Map<SittingSet, Map<number, WrittenQuestion>>()
  const union = new Set<number>()
  for (const plan of sitting.plans) {
    const numbers = new Map<number, WrittenQuestion>()
    plan.order.forEach((paperIndex, row) => {
      const question = paper.questions[paperIndex]!
      if (question.type !== 'written') return
      numbers.set(row + 1, { questionId: question.questionId, revisionId: question.revisionId })
      union.add(row + 1)
    })
    bySet.set(plan.set, numbers)
  }
  return {
    bySet,
    union: [...union].sort((a, b) => a - b),
    hasChoice: paper.questions.some((question) => question.type !== 'written'),
  }
}

const bookletOrder = (a: { page_number: number | null; serial: number | null; id: number }, b: typeof a) =>
  (a.page_number ?? Infinity) - (b.page_number ?? Infinity) || (a.serial ?? 0) - (b.serial ?? 0) || a.id - b.id

/** Makes a learner's written answers what their recorded booklet pages say, through written/ (decision 075). */
export function createBookletJoin({
  papers,
  paperAttempts,
  config,
}: Pick<AppContext, 'config'> & { papers: QuestionPapers; paperAttempts: PaperAttempts }) {
  const { joinPaperAnswers } = createPaperAnswers({ config })
  return async function joinBookletPages(trx: Kysely<DB>, sitting: SittingView, userId: number, now: number) {
    const place = await findRosterPlaceOf(trx, sitting.id, userId)
    const written = await writtenOf(trx, papers, sitting)
    const set = (place?.set_letter ?? sitting.plans[0]!.set) as SittingSet
    const numbers = written.bySet.get(set)
    if (!numbers || numbers.size === 0) return
    const recorded = (await listRecordedPagesOf(trx, sitting.id, userId)).sort(bookletOrder)
    let attempt = await findSittingAttempt(trx, sitting.id, userId)
    if (!attempt && recorded.length > 0 && !written.hasChoice) {
      const plan = sitting.plans.find((candidate) => candidate.set === set)!
      const revisionIds = JSON.parse(sitting.revision_ids) as number[]
      const sections = sitting.sections ?? JSON.stringify(attemptSections(null, plan.order.length))
      const finished = await paperAttempts.record(trx, {
        userId,
        quizId: sitting.quiz_id,
        sittingId: sitting.id,
        isLiveQuiz: sitting.live_starts_at !== null,
        heldAt: sitting.held_at,
        deadline: sitting.held_at + sitting.duration_minutes * 60_000,
        revisionIds: plan.order.map((paperIndex) => revisionIds[paperIndex]!),
        optionOrder: plan.options,
        sections,
        answers: new Map(),
        now,
      })
      attempt = { id: finished.attempt.id, revision_ids: finished.attempt.revision_ids }
    }
    if (!attempt) return
    const answers = [...numbers].map(([number, question]) => ({
      ...question,
      hashes: recorded
        .filter((page) => (JSON.parse(page.questions) as number[]).includes(number))
        // Pages read before decision 089 have no masked image: they join as they did.
        .map((page) => page.answer_hash ?? page.image_hash),
    }))
    await joinPaperAnswers(trx, { userId, attemptId: attempt.id }, answers, now)
  }
}

export type BookletJoin = ReturnType<typeof createBookletJoin>
