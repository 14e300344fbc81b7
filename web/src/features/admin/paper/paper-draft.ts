import type {
  AdminPaper,
  AdminQuestion,
  AdminSection,
  Bilingual,
  RichText,
  Difficulty,
  DrawMode,
  DrawnQuestion,
} from '@quiz/contracts'
import { parseTags } from '../bank/bank-draft'

// A quiz's paper as the Paper tab edits it (API.md "Papers: sections, marks and draws"). Numbers stay as typed
// until they are sent, so the server's refusal of "abc" or "0.125" lands on the field that holds it. Marks for a
// wrong answer are typed as the positive number taken off (WEB.md: 0.5 means −0.5).

/** The admin quiz with its paper; a server without papers sends only `questions` (one section, +1 / −0.2). */
export type QuizWithPaper = { id: number; questions: AdminQuestion[] } & Partial<AdminPaper>

export interface FixedDraft {
  key: string
  kind: 'fixed'
  question_id: number
  /** The question's text, for the list (from the quiz's questions or the bank row it was picked from). */
  text: RichText | null
}

export interface DrawDraft {
  key: string
  kind: 'draw'
  topic: string
  /** As typed: separated by commas or semicolons; a draw takes questions holding all of them. */
  tags: string
  difficulty: Difficulty | ''
  source: string
  count: string
  /** The server's count of live matching questions when the paper was last loaded. */
  savedPool: number | null
  /** The filters the saved pool is for, to know whether it still applies. */
  savedFilters: string | null
  /** A frozen paper's questions for this draw as saved (empty until it is drawn). */
  drawn: DrawnQuestion[]
  /** Whole bank passages only, `count` counting their questions. */
  passages: boolean
}

/** A bank passage as one item: all of its questions, in its order (API.md "Question types"). */
export interface PassageDraft {
  key: string
  kind: 'passage'
  passage_id: number
  question_ids: number[]
  /** The passage's text, for the list (from the passage picked; null for one loaded with the paper). */
  text: RichText | null
}

export type ItemDraft = FixedDraft | DrawDraft | PassageDraft

/** How a section marks questions with several right options (API.md "Question types"). */
export type MultipleScheme = 'all_or_nothing' | 'partial'

export interface SectionDraft {
  key: string
  title: Bilingual
  marks_correct: string
  marks_wrong: string
  time_limit: string
  multiple_scheme: MultipleScheme
  /** Marks per right option chosen under partial marking, as typed. */
  partial_marks: string
  /** Whether a wrong numeric answer loses `marks_wrong` (GATE: it does not). */
  numeric_negative: boolean
  items: ItemDraft[]
}

/** Named marking schemes an admin applies with one button (WEB.md "Question types on the screens"). */
export const MARKING_PRESETS = {
  jee_advanced: {
    marks_correct: '4',
    marks_wrong: '2',
    multiple_scheme: 'partial',
    partial_marks: '1',
    numeric_negative: false,
  },
  // GATE's MSQ and NAT questions: all or nothing, and no negative marks for either; its MCQ marks are left as set.
  gate: { multiple_scheme: 'all_or_nothing', numeric_negative: false },
} as const satisfies Record<string, Partial<SectionDraft>>

let nextKey = 0
/** React keys for rows that have no id of their own (a new section, two draws alike). */
export const newKey = () => `k${(nextKey += 1)}`

export const DEFAULT_MARKS_CORRECT = 1
export const DEFAULT_MARKS_WRONG = 0.2

export function emptySection(): SectionDraft {
  return {
    key: newKey(),
    title: { en: '', ne: '' },
    marks_correct: String(DEFAULT_MARKS_CORRECT),
    marks_wrong: String(DEFAULT_MARKS_WRONG),
    time_limit: '',
    multiple_scheme: 'all_or_nothing',
    partial_marks: '1',
    numeric_negative: true,
    items: [],
  }
}

export function emptyDraw(): DrawDraft {
  return {
    key: newKey(),
    kind: 'draw',
    topic: '',
    tags: '',
    difficulty: '',
    source: '',
    count: '1',
    savedPool: null,
    savedFilters: null,
    drawn: [],
    passages: false,
  }
}

/** A draw's filters as one string, to compare a draft's with what was saved. */
export const drawFilterKey = (draw: Pick<DrawDraft, 'topic' | 'tags' | 'difficulty' | 'source'>) =>
  JSON.stringify([
    draw.topic.trim(),
    parseTags(draw.tags).map((tag) => tag.toLocaleLowerCase()),
    draw.difficulty,
    draw.source.trim(),
  ])

function sectionDraft(section: AdminSection, texts: Map<number, RichText>): SectionDraft {
  return {
    key: newKey(),
    title: { en: section.title.en, ne: section.title.ne },
    marks_correct: String(section.marks_correct),
    marks_wrong: String(section.marks_wrong),
    time_limit: section.time_limit_minutes === null ? '' : String(section.time_limit_minutes),
    multiple_scheme: section.multiple?.scheme ?? 'all_or_nothing',
    partial_marks: String(section.multiple?.partial_marks ?? 1),
    numeric_negative: section.numeric_negative ?? true,
    items: section.items.map((item): ItemDraft => {
      if ('passage_id' in item)
        return {
          key: newKey(),
          kind: 'passage',
          passage_id: item.passage_id,
          question_ids: item.question_ids,
          // The passage's text is the passage list's; the first question's text names it meanwhile.
          text: texts.get(item.question_ids[0] ?? 0) ?? null,
        }
      if ('question_id' in item)
        return {
          key: newKey(),
          kind: 'fixed',
          question_id: item.question_id,
          text: texts.get(item.question_id) ?? null,
        }
      const draw: Pick<DrawDraft, 'topic' | 'tags' | 'difficulty' | 'source'> = {
        topic: item.draw.topic ?? '',
        tags: item.draw.tags.join(', '),
        // The wire says a plain string (API.md: easy, medium, hard or null).
        difficulty: (item.draw.difficulty ?? '') as DrawDraft['difficulty'],
        source: item.draw.source ?? '',
      }
      return {
        key: newKey(),
        kind: 'draw',
        ...draw,
        count: String(item.draw.count),
        savedPool: item.pool,
        savedFilters: drawFilterKey(draw),
        drawn: item.drawn ?? [],
        passages: item.draw.passages ?? false,
      }
    }),
  }
}

export function paperDraft(quiz: QuizWithPaper): SectionDraft[] {
  const texts = new Map(quiz.questions.map((question) => [question.id, question.text]))
  if (quiz.sections && quiz.sections.length > 0) return quiz.sections.map((section) => sectionDraft(section, texts))
  // A quiz from before papers: one section of its questions, marked as every quiz was.
  return [
    {
      ...emptySection(),
      items: quiz.questions.map((question) => ({
        key: newKey(),
        kind: 'fixed',
        question_id: question.id,
        text: question.text,
      })),
    },
  ]
}

/** A typed number as sent: empty is null (the server says it is required), what is not a number goes as typed. */
function typedNumber(text: string): number | string | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : trimmed
}

/** Marks taken off, typed as the positive number; a leading minus, as on a printed paper ("−0.5"), is read as meant. */
function typedPenalty(text: string): number | string | null {
  return typedNumber(text.trim().replace(/^[-\u2212]\s*/, ''))
}

export function toSectionsPayload(sections: SectionDraft[]) {
  return {
    sections: sections.map((section) => {
      const time = typedNumber(section.time_limit)
      return {
        title: { en: section.title.en.trim(), ne: section.title.ne.trim() },
        marks_correct: typedNumber(section.marks_correct),
        marks_wrong: typedPenalty(section.marks_wrong),
        time_limit_minutes: time,
        multiple: {
          scheme: section.multiple_scheme,
          // Only partial marking reads its marks; all or nothing lets the server keep its default.
          ...(section.multiple_scheme === 'partial' && { partial_marks: typedNumber(section.partial_marks) }),
        },
        numeric_negative: section.numeric_negative,
        items: section.items.map((item) => {
          if (item.kind === 'fixed') return { question_id: item.question_id }
          if (item.kind === 'passage') return { passage_id: item.passage_id }
          const tags = parseTags(item.tags)
          return {
            draw: {
              ...(item.topic.trim() ? { topic: item.topic.trim() } : {}),
              ...(tags.length ? { tags } : {}),
              ...(item.difficulty ? { difficulty: item.difficulty } : {}),
              ...(item.source.trim() ? { source: item.source.trim() } : {}),
              ...(item.passages && { passages: true }),
              count: typedNumber(item.count),
            },
          }
        }),
      }
    }),
  }
}

/** Whole, non-negative hundredths of a typed mark, or null when it is not one. */
function hundredths(text: string): number | null {
  const value = Number(text.trim().replace(/^[-\u2212]\s*/, ''))
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) return null
  return Math.round(value * 100)
}

const itemCount = (item: ItemDraft) => {
  if (item.kind === 'fixed') return 1
  if (item.kind === 'passage') return item.question_ids.length
  const count = Number(item.count)
  return Number.isInteger(count) && count > 0 ? count : 0
}

export interface SectionTotals {
  questions: number
  /** In hundredths, so the sum is exact; null while a mark is not a number. */
  maxHundredths: number | null
  minutes: number | null
}

export function sectionTotals(section: SectionDraft): SectionTotals {
  const questions = section.items.reduce((sum, item) => sum + itemCount(item), 0)
  const marks = hundredths(section.marks_correct)
  const minutes = Number(section.time_limit)
  return {
    questions,
    maxHundredths: marks === null ? null : questions * marks,
    minutes: section.time_limit.trim() !== '' && Number.isInteger(minutes) ? minutes : null,
  }
}

export function paperTotals(sections: SectionDraft[]): SectionTotals {
  const each = sections.map(sectionTotals)
  return {
    questions: each.reduce((sum, totals) => sum + totals.questions, 0),
    maxHundredths: each.some((totals) => totals.maxHundredths === null)
      ? null
      : each.reduce((sum, totals) => sum + (totals.maxHundredths ?? 0), 0),
    minutes: each.every((totals) => totals.minutes !== null)
      ? each.reduce((sum, totals) => sum + (totals.minutes ?? 0), 0)
      : null,
  }
}

/** The question ids the paper names as fixed items or in its passages: a question may be in a paper once. */
export const fixedIds = (sections: SectionDraft[]) =>
  new Set(
    sections.flatMap((section) =>
      section.items.flatMap((item) =>
        item.kind === 'fixed' ? [item.question_id] : item.kind === 'passage' ? item.question_ids : [],
      ),
    ),
  )

/** The passages the paper holds: a passage may be in a paper once. */
export const passageIds = (sections: SectionDraft[]) =>
  new Set(
    sections.flatMap((section) => section.items.flatMap((item) => (item.kind === 'passage' ? [item.passage_id] : []))),
  )

export type { DrawMode }
