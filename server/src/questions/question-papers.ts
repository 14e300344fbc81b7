import { fromHundredths, PICTURE_URL_PATTERN, type QuizQuestion } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import {
  numericKeyOf,
  optionView,
  richTextsOf,
  toImage,
  type RevisionWithOptions,
} from './question-revisions.repository'
import { paperColumns } from './paper-columns'
import { createRevisionCache } from './revision-cache'
import { findAnswerKeys } from './answer-keys'
import type { ScoredQuestion } from './scoring'
import { withPassages } from './paper-passages'
import { passagesVersion } from './passages.repository'

export interface PaperQuestion extends ScoredQuestion {
  revisionId: number
  learner: Omit<QuizQuestion, 'number'>
  optionIds: ReadonlySet<number>
  /** The bank passage it is read under (docs/decisions/117), or null. */
  passageId: number | null
}

export interface Paper {
  questions: readonly PaperQuestion[]
  byQuestionId: ReadonlyMap<number, PaperQuestion>
  questionRefs: readonly { id: number }[]
}

export type QuestionPapers = ReturnType<typeof createQuestionPapers>

// Revisions cached forever, papers LRU by count; `picturesAhead` hears a new paper's pictures, about to be asked for.
export function createQuestionPapers({
  maxRevisionChars = 64 * 1024 * 1024,
  maxPapers = 2_000,
  picturesAhead = (_hashes: readonly string[]) => {},
} = {}) {
  const revisions = createRevisionCache(toPaperQuestion, { maxChars: maxRevisionChars })
  const papers = new Map<string, Paper>()

  /**
   * `knownPassagesVersion`: the institute's passages version where the caller's own read carried it (the hot routes'
   * attempt read); otherwise read here.
   */
  async function paperFor(
    db: Kysely<DB>,
    revisionIdsJson: string,
    optionOrderJson?: string | null,
    knownPassagesVersion?: number,
  ): Promise<Paper> {
    // Passages are live (an edit shows on every paper): the paper is keyed by the institute's passages version.
    const version = knownPassagesVersion ?? (await passagesVersion(db))
    const base = optionOrderJson ? `${revisionIdsJson}|${optionOrderJson}` : revisionIdsJson
    const key = version === 0 ? base : `${base}|${version}`
    const cached = papers.get(key)
    if (cached) {
      papers.delete(key)
      papers.set(key, cached)
      return cached
    }
    let questions = await revisions.get(db, paperColumns.revisionIds(revisionIdsJson))
    const orders = paperColumns.optionOrder(optionOrderJson)
    if (orders) questions = questions.map((question, index) => inOptionOrder(question, orders[index]))
    if (version !== 0) questions = await withPassages(db, questions)
    const paper: Paper = {
      questions,
      byQuestionId: new Map(questions.map((question) => [question.questionId, question])),
      questionRefs: questions.map((question) => ({ id: question.questionId })),
    }
    papers.set(key, paper)
    if (papers.size > maxPapers) papers.delete(papers.keys().next().value!)
    const pictures = pictureHashesOf(questions)
    if (pictures.length > 0) picturesAhead(pictures)
    return paper
  }

  return { paperFor }
}

function pictureHashesOf(questions: readonly PaperQuestion[]): string[] {
  const images = questions.flatMap(({ learner }) => [learner.image, ...learner.options.map((option) => option.image)])
  return images.flatMap((image) => {
    const hash = image?.picture ? PICTURE_URL_PATTERN.exec(image.picture.url)?.[1] : undefined
    return hash ? [hash] : []
  })
}

// Ids the order does not name (a damaged order) keep their authored places after the named ones: no option is lost.
export function inDrawnOrder<T extends { id: number }>(items: readonly T[], order: readonly number[] | undefined): T[] {
  if (!order) return [...items]
  const rank = new Map(order.map((id, index) => [id, index]))
  const last = Number.MAX_SAFE_INTEGER
  return [...items].sort((a, b) => (rank.get(a.id) ?? last) - (rank.get(b.id) ?? last))
}

function inOptionOrder(question: PaperQuestion, order: readonly number[] | undefined): PaperQuestion {
  if (!order) return question
  return { ...question, learner: { ...question.learner, options: inDrawnOrder(question.learner.options, order) } }
}

function toPaperQuestion(revision: RevisionWithOptions): PaperQuestion {
  const options = revision.options.map((option) => optionView(option, 'learner', 'svg'))
  const texts = richTextsOf(revision, 'learner')
  const written = revision.type === 'written'
  const numericKey = revision.type === 'numeric' ? numericKeyOf(revision) : null
  return {
    // Choice questions carry no type, as before: the markers take an absent type for choice.
    ...(revision.type !== 'choice' ? { type: revision.type } : {}),
    ...(revision.type === 'multiple' && {
      correctOptionIds: new Set(revision.options.filter((option) => option.is_correct === 1).map(({ id }) => id)),
    }),
    ...(numericKey && { numeric: { answer: numericKey, decimals: revision.decimals } }),
    questionId: revision.question_id,
    revisionId: revision.id,
    passageId: null,
    correctOptionId:
      revision.type === 'choice' ? (revision.options.find((option) => option.is_correct === 1)?.id ?? null) : null,
    optionIds: new Set(revision.options.map((option) => option.id)),
    learner: {
      id: revision.question_id,
      text: texts.text,
      topic: revision.topic,
      type: revision.type,
      image: toImage(revision, texts.caption, 'svg'),
      options,
      marks: written && revision.marks !== null ? fromHundredths(revision.marks) : null,
      word_limit: written ? revision.word_limit : null,
      ...(revision.type === 'numeric' && { decimals: revision.decimals }),
      passage: null,
    },
  }
}

// Keys can change at any time, in any process: read on every scoring, never cached with the paper (docs/decisions/036).
export async function withAnswerKeys<P extends Paper>(db: Kysely<DB>, paper: P, { lock = false } = {}): Promise<P> {
  const keys = await findAnswerKeys(
    db,
    paper.questions.map((question) => question.revisionId),
    { lock },
  )
  if (keys.size === 0) return paper
  const questions = paper.questions.map((question) => {
    const key = keys.get(question.revisionId)
    return key ? { ...question, key } : question
  })
  return { ...paper, questions, byQuestionId: new Map(questions.map((question) => [question.questionId, question])) }
}
