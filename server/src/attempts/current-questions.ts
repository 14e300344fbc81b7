import { fromHundredths, type QuizListSection } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { drawOfItem, type DrawFilter } from '../questions/draws'
import { findQuestionSetVersion, listVersionWithPaper } from './current-questions.repository'
import type { AttemptSection } from '../questions/sections'

export type PaperSlot = { questionId: number; revisionId: number } | { itemId: number; draw: DrawFilter }

export interface FixedPaper {
  revisionIds: number[]
  /** One array while the paper is kept, so the show log digests it once (questions/show-log.ts). Never change it. */
  questionIds: readonly number[]
  sections: { sectionId: number; revisionIds: number[]; slots: PaperSlot[]; section: AttemptSection }[]
  hasDraws: boolean
  /** Made once per paper rather than per start; no `sections` when one is timed (stretched per learner). */
  stored: { revisionIds: string; untimedSections: string }
}

const withStored = (paper: Omit<FixedPaper, 'stored'>): FixedPaper => ({
  ...paper,
  stored: {
    revisionIds: JSON.stringify(paper.revisionIds),
    untimedSections: JSON.stringify(paper.sections.map(({ section }) => section)),
  },
})

export type SectionSummary = QuizListSection

/**
 * How the section marks multiple and numeric questions, only where it differs from the defaults the markers assume
 * (questions/scoring.ts): a paper of choice questions keeps the sections JSON it always had.
 */
function sectionMarking(row: {
  multiple_scheme: 'all_or_nothing' | 'partial' | null
  partial_marks: number | null
  numeric_negative: number | null
}): Pick<AttemptSection, 'multiple_scheme' | 'partial_marks' | 'numeric_negative'> {
  return {
    ...(row.multiple_scheme === 'partial' && { multiple_scheme: 'partial', partial_marks: row.partial_marks ?? 100 }),
    ...(row.multiple_scheme !== 'partial' && row.partial_marks !== null && row.partial_marks !== 100
      ? { partial_marks: row.partial_marks }
      : {}),
    ...(row.numeric_negative === 0 && { numeric_negative: false }),
  }
}

const summaryOf = (paper: FixedPaper): SectionSummary[] =>
  paper.sections.map(({ section }) => ({
    title: { en: section.title_en, ne: section.title_ne },
    marks_correct: fromHundredths(section.marks_correct),
    marks_wrong: fromHundredths(section.marks_wrong),
    count: section.count,
    time_limit_minutes: section.time_limit_minutes,
  }))

// Kept per process under question_set_version (docs/decisions/021): 1,000 starts read one small row each.
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
            ...sectionMarking(row),
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
    // Given a version read with the quiz, a held paper of it is taken without a statement, as if started then.
    async currentPaper(trx: Kysely<DB>, quizId: number, knownVersion?: number): Promise<FixedPaper> {
      const cached = papers.get(quizId)
      if (cached) {
        const version = knownVersion ?? (await findQuestionSetVersion(trx, quizId))
        if (version === cached.version) return cached.paper
      }
      return load(trx, quizId)
    },

    summaryAt(quizId: number, version: number): SectionSummary[] | undefined {
      const cached = papers.get(quizId)
      if (!cached || cached.version !== version) return undefined
      return (cached.summary ??= summaryOf(cached.paper))
    },

    async loadSummary(db: Kysely<DB>, quizId: number): Promise<SectionSummary[]> {
      const paper = await load(db, quizId)
      const cached = papers.get(quizId)
      return cached?.paper === paper ? (cached.summary ??= summaryOf(paper)) : summaryOf(paper)
    },
  }
}

export type CurrentQuestions = ReturnType<typeof createCurrentQuestions>
