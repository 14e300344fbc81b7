import { fromHundredths, type QuizListSection } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { drawOfItem, type DrawFilter } from '../questions/draws'
import { findQuestionSetVersion, listVersionWithPaper } from './current-questions.repository'
import type { AttemptSection } from '../questions/sections'

/** An item of a section: a fixed question (its current revision) or a draw. */
export type PaperSlot = { questionId: number; revisionId: number } | { itemId: number; draw: DrawFilter }

/** A quiz paper's fixed part: its sections (with the count of their live fixed questions) and those questions. */
export interface FixedPaper {
  /** Current revision ids of the live fixed questions, in paper order. */
  revisionIds: number[]
  /**
   * The live fixed questions' ids, in paper order: one array for as long as the paper is kept, so that the show log
   * digests it once (questions/show-log.ts, recordSet). Never change it.
   */
  questionIds: readonly number[]
  /** Per section, in order: its revision ids (a slice of revisionIds), its items, and its details. */
  sections: { sectionId: number; revisionIds: number[]; slots: PaperSlot[]; section: AttemptSection }[]
  hasDraws: boolean
  /**
   * What every start of an unshuffled paper without draws stores, made once per paper rather than per start: the
   * revision ids as `revision_ids` JSON, and the sections as `sections` JSON when none is timed (a timed section's
   * limit is stretched by each learner's extra time).
   */
  stored: { revisionIds: string; untimedSections: string }
}

const withStored = (paper: Omit<FixedPaper, 'stored'>): FixedPaper => ({
  ...paper,
  stored: {
    revisionIds: JSON.stringify(paper.revisionIds),
    untimedSections: JSON.stringify(paper.sections.map(({ section }) => section)),
  },
})

/** A section as the learner's list shows it before a start (API.md "Quizzes for learners"). */
export type SectionSummary = QuizListSection

const summaryOf = (paper: FixedPaper): SectionSummary[] =>
  paper.sections.map(({ section }) => ({
    title: { en: section.title_en, ne: section.title_ne },
    marks_correct: fromHundredths(section.marks_correct),
    marks_wrong: fromHundredths(section.marks_wrong),
    count: section.count,
    time_limit_minutes: section.time_limit_minutes,
  }))

/**
 * The fixed part of a quiz's paper, kept per process under the quiz's question_set_version (raised by triggers,
 * migrations 0007 and 0010): an exam's 1,000 starts read one small row each instead of 100 question rows. The
 * version is read in the caller's transaction, so a change committed by any process is seen as by reading the
 * paper. The learner's list shows sections from the same entries (`summaryAt`) at no query more.
 */
export function createCurrentQuestions() {
  const papers = new Map<number, { version: number; paper: FixedPaper; summary?: SectionSummary[] }>()

  async function load(db: Kysely<DB>, quizId: number): Promise<FixedPaper> {
    const rows = await listVersionWithPaper(db, quizId)
    if (rows.length === 0) return withStored({ revisionIds: [], questionIds: [], sections: [], hasDraws: false })
    const sections: FixedPaper['sections'] = []
    for (const row of rows) {
      if (row.section_id === null) continue
      let last = sections.at(-1)
      if (!last || last.sectionId !== row.section_id) {
        last = {
          sectionId: row.section_id,
          revisionIds: [],
          slots: [],
          section: {
            title_en: row.title_en ?? '',
            title_ne: row.title_ne ?? '',
            marks_correct: row.marks_correct ?? 100,
            marks_wrong: row.marks_wrong ?? 20,
            time_limit_minutes: row.time_limit_minutes,
            count: 0,
          },
        }
        sections.push(last)
      }
      if (row.revision_id !== null && row.question_id !== null) {
        last.revisionIds.push(row.revision_id)
        last.slots.push({ questionId: row.question_id, revisionId: row.revision_id })
        last.section.count++
      } else if (row.item_id !== null && row.question_id === null && row.draw_count !== null) {
        last.slots.push({ itemId: row.item_id, draw: drawOfItem(row) })
        last.section.count += row.draw_count
      }
    }
    const paper = withStored({
      revisionIds: sections.flatMap((section) => section.revisionIds),
      questionIds: sections.flatMap((section) =>
        section.slots.flatMap((slot) => ('questionId' in slot ? [slot.questionId] : [])),
      ),
      sections,
      hasDraws: sections.some((section) => section.slots.some((slot) => 'draw' in slot)),
    })
    papers.set(quizId, { version: rows[0]!.question_set_version, paper })
    return paper
  }

  return {
    /**
     * The quiz's current fixed paper, read in the caller's transaction; or, given the version the caller read with
     * the quiz, the paper of that version when this process holds it, without a statement: a start that read the
     * quiz a moment before its transaction takes the paper the quiz had then, as if it had started that moment.
     */
    async currentPaper(trx: Kysely<DB>, quizId: number, knownVersion?: number): Promise<FixedPaper> {
      const cached = papers.get(quizId)
      if (cached) {
        const version = knownVersion ?? (await findQuestionSetVersion(trx, quizId))
        if (version === cached.version) return cached.paper
      }
      return load(trx, quizId)
    },

    /**
     * The quiz's sections as the learner's list shows them, when the caller has just read the quiz's version with
     * it; undefined when this process holds no paper of that version (then `loadSummary`).
     */
    summaryAt(quizId: number, version: number): SectionSummary[] | undefined {
      const cached = papers.get(quizId)
      if (!cached || cached.version !== version) return undefined
      return (cached.summary ??= summaryOf(cached.paper))
    },

    /** Reads the quiz's paper (and keeps it) for its sections as the list shows them. */
    async loadSummary(db: Kysely<DB>, quizId: number): Promise<SectionSummary[]> {
      const paper = await load(db, quizId)
      const cached = papers.get(quizId)
      return cached?.paper === paper ? (cached.summary ??= summaryOf(paper)) : summaryOf(paper)
    },
  }
}

export type CurrentQuestions = ReturnType<typeof createCurrentQuestions>
