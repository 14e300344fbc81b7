import type { ReportQuestion } from '@quiz/contracts'
import type { NumericKey } from '@quiz/contracts/rules/numbers'
import { isKeyedCorrect, type AnswerKey } from '../questions/answer-keys'
import { inDrawnOrder } from '../questions/question-papers'
import { optionView, richTextsOf, toImage, type RevisionWithOptions } from '../questions/question-revisions.repository'
import type { ScoredQuestion } from '../questions/scoring'
import { toScoredQuestion } from '../questions/scored-question'

type ReportOption = ReportQuestion['options'][number]

export interface ReportRevision {
  questionId: number
  topic: string
  /** The option written as right (the decided key, read per report, may say otherwise). */
  correctOptionId: number | null
  /** A written question: marked by rubric, outside the choice part's counts (its marks are in `written`). */
  written: boolean
  type: ReportQuestion['type']
  /** What the markers of questions/type-marks.ts read (the decided key is added per report). */
  scored: ScoredQuestion
  shown: Omit<ReportQuestion, 'options' | 'type' | 'answer'>
  options: readonly (Omit<ReportOption, 'is_correct'> & { writtenCorrect: boolean })[]
}

/** Texts read their stored rendering (docs/decisions/027): a learner's report shows no TeX. */
export function toReportRevision(revision: RevisionWithOptions): ReportRevision {
  const texts = richTextsOf(revision, 'learner')
  return {
    questionId: revision.question_id,
    topic: revision.topic,
    correctOptionId: revision.options.find((option) => option.is_correct === 1)?.id ?? null,
    written: revision.type === 'written',
    type: revision.type,
    scored: toScoredQuestion(revision),
    shown: {
      id: revision.question_id,
      text: texts.text,
      hint: texts.hint,
      topic: revision.topic,
      image: toImage(revision, texts.caption, 'svg_content'),
    },
    options: revision.options.map((option) => ({
      ...optionView(option, 'learner', 'svg_content'),
      writtenCorrect: option.is_correct === 1,
    })),
  }
}

export function toReportQuestion(
  revision: ReportRevision,
  optionOrder: readonly number[] | undefined,
  key: AnswerKey | undefined,
): ReportQuestion {
  // Field by field: spread copies of the cached revision went to V8's old generation (docs/performance.md, issue 62).
  const { shown } = revision
  return {
    id: shown.id,
    text: shown.text,
    hint: shown.hint,
    topic: shown.topic,
    image: shown.image,
    type: revision.type,
    ...(revision.scored.numeric && { answer: keyedNumeric(revision.scored.numeric.answer, key) }),
    options: inDrawnOrder(revision.options, optionOrder).map((option) => ({
      id: option.id,
      text: option.text,
      is_correct: isKeyedCorrect(option.id, option.writtenCorrect, key),
      image: option.image,
    })),
  }
}

/** A decided key's value or range (API.md "Answer-key challenges") over the authored one. */
const keyedNumeric = (authored: NumericKey, key: AnswerKey | undefined): NumericKey => key?.answer ?? authored

/** The question with nothing that tells its key: no option marked right, no hint (a live mock still running). */
export const withoutKey = (question: ReportQuestion): ReportQuestion => ({
  ...question,
  ...(question.answer !== undefined && { answer: null }),
  hint: null,
  options: question.options.map((option) => ({ ...option, is_correct: false })),
})
