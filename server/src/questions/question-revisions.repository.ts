import {
  PICTURE_URL_PATTERN,
  picturePath,
  toHundredths,
  type Picture,
  type PictureInput,
  type RichText,
} from '@quiz/contracts'
import type { NumericKey } from '@quiz/contracts/rules/numbers'
import type { Kysely } from 'kysely'
import { contentHash } from './content-hash'
import { appendFixedItems, listFixedQuestions } from './quiz-papers.repository'
import { shuffled } from '../lib/random'
import { parseStoredMaths, richText, storedMaths } from '../maths/rich-text'
import type {
  DB,
  NewQuestionOptionRow,
  NewQuestionRevisionRow,
  QuestionOptionRow,
  QuestionRevisionRow,
} from '../db/schema'

export interface QuestionContent {
  text: { en: string; ne: string }
  hint: { en: string; ne: string } | null
  topic: string
  image: StoredImage | null
  options: {
    text: { en: string; ne: string }
    is_correct: boolean
    image: StoredImage | null
  }[]
  type?: 'choice' | 'multiple' | 'numeric' | 'written'
  /** Numeric only: the accepted answer and the decimals a typed answer may have. */
  answer?: NumericKey | null
  decimals?: number | null
  marks?: number | null
  word_limit?: number | null
  model_answer?: { en: string; ne: string } | null
}

// admin/image-fields.ts replaced any bytes sent with the stored picture before the body reached a service.
export interface StoredImage {
  svg?: string | null
  picture?: PictureInput | null
  caption: { en: string; ne: string }
}

export function imageColumns(image: StoredImage | null) {
  const picture = image?.picture
  if (picture === null || picture === undefined) {
    return { image_svg: image?.svg ?? null, image_picture: null, image_width: null, image_height: null }
  }
  const hash = typeof picture === 'string' ? undefined : PICTURE_URL_PATTERN.exec(picture.url)?.[1]
  if (
    typeof picture === 'string' ||
    hash === undefined ||
    picture.width === undefined ||
    picture.height === undefined
  ) {
    throw new Error('a picture reached storage without being stored first')
  }
  return { image_svg: null, image_picture: hash, image_width: picture.width, image_height: picture.height }
}

// Every key for every type: a multi-row insert of several types then names the same columns in every row.
function typeColumns(content: QuestionContent) {
  const none = { marks: null, word_limit: null, model_answer_en: null, model_answer_ne: null }
  const notNumeric = { numeric_answer: null, decimals: null }
  if (content.type === 'multiple') return { type: 'multiple' as const, ...none, ...notNumeric }
  if (content.type === 'numeric')
    return {
      type: 'numeric' as const,
      ...none,
      numeric_answer: JSON.stringify(content.answer ?? null),
      decimals: content.decimals ?? null,
    }
  if (content.type !== 'written') return { type: 'choice' as const, ...none, ...notNumeric }
  return {
    type: 'written' as const,
    marks: toHundredths(content.marks ?? 0),
    word_limit: content.word_limit ?? null,
    model_answer_en: content.model_answer?.en ?? null,
    model_answer_ne: content.model_answer?.ne ?? null,
    ...notNumeric,
  }
}

/** A numeric revision's accepted answer as stored (JSON), or null for other types. */
export function numericKeyOf(row: Pick<QuestionRevisionRow, 'numeric_answer'>): NumericKey | null {
  return row.numeric_answer === null ? null : (JSON.parse(row.numeric_answer) as NumericKey)
}

export type RevisionWithOptions = QuestionRevisionRow & { options: QuestionOptionRow[] }

export function toRevisionValues(questionId: number, content: QuestionContent, now: number): NewQuestionRevisionRow {
  return {
    question_id: questionId,
    text_en: content.text.en,
    text_ne: content.text.ne,
    hint_en: content.hint?.en ?? null,
    hint_ne: content.hint?.ne ?? '',
    topic: content.topic,
    ...imageColumns(content.image),
    image_caption_en: content.image?.caption.en ?? '',
    image_caption_ne: content.image?.caption.ne ?? '',
    maths: storedMaths({
      text: content.text,
      hint: content.hint,
      caption: content.image?.caption ?? null,
      model_answer: content.type === 'written' ? (content.model_answer ?? null) : null,
    }),
    created_at: now,
    content_hash: contentHash(content),
    ...typeColumns(content),
  }
}

// An order of their own: ids in authored order would tell a shuffled paper's key (docs/decisions/023).
export function toOptionValues(revisionId: number, options: QuestionContent['options']): NewQuestionOptionRow[] {
  return shuffled(
    options.map((option, index) => ({
      revision_id: revisionId,
      position: index + 1,
      text_en: option.text.en,
      text_ne: option.text.ne,
      is_correct: option.is_correct ? 1 : 0,
      ...imageColumns(option.image),
      image_caption_en: option.image?.caption.en ?? '',
      image_caption_ne: option.image?.caption.ne ?? '',
      maths: storedMaths({ text: option.text, caption: option.image?.caption ?? null }),
    })),
  )
}

export async function insertRevision(db: Kysely<DB>, questionId: number, content: QuestionContent, now: number) {
  const revision = await db
    .insertInto('question_revisions')
    .values(toRevisionValues(questionId, content, now))
    .returning('id')
    .executeTakeFirstOrThrow()
  if (content.options.length > 0)
    await db.insertInto('question_options').values(toOptionValues(revision.id, content.options)).execute()
  return revision.id
}

export async function insertBankQuestion(
  db: Kysely<DB>,
  content: QuestionContent,
  now: number,
  details: { difficulty?: string | null; source?: string | null } = {},
) {
  const question = await db
    .insertInto('questions')
    .values({
      revision_id: null,
      deleted_at: null,
      difficulty: details.difficulty ?? null,
      source: details.source ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const revisionId = await insertRevision(db, question.id, content, now)
  await db.updateTable('questions').set({ revision_id: revisionId }).where('id', '=', question.id).execute()
  return question.id
}

export async function insertQuestion(db: Kysely<DB>, quizId: number, content: QuestionContent, now: number) {
  const questionId = await insertBankQuestion(db, content, now)
  await appendFixedItems(db, quizId, [questionId])
  return questionId
}

export async function listCurrentRevisionIds(db: Kysely<DB>, quizId: number) {
  return (await listFixedQuestions(db, quizId)).map(({ question_id, revision_id }) => ({ question_id, revision_id }))
}

export async function findRevisions(db: Kysely<DB>, revisionIds: readonly number[]) {
  const byId = new Map<number, RevisionWithOptions>()
  if (revisionIds.length === 0) return byId
  const ids = [...new Set(revisionIds)]
  const revisions = await db.selectFrom('question_revisions').selectAll().where('id', 'in', ids).execute()
  const options = await db
    .selectFrom('question_options')
    .selectAll()
    .where('revision_id', 'in', ids)
    .orderBy('revision_id')
    .orderBy('position')
    .execute()
  for (const revision of revisions) byId.set(revision.id, { ...revision, options: [] })
  for (const option of options) byId.get(option.revision_id)?.options.push(option)
  return byId
}

export type Audience = 'learner' | 'admin'

export function richTextsOf(
  row: Pick<QuestionRevisionRow, 'text_en' | 'text_ne' | 'image_caption_en' | 'image_caption_ne' | 'maths'> &
    Partial<Pick<QuestionRevisionRow, 'hint_en' | 'hint_ne'>>,
  audience: Audience,
) {
  const maths = parseStoredMaths(row.maths)
  return {
    text: richText({ en: row.text_en, ne: row.text_ne }, maths.text, audience),
    hint:
      row.hint_en === undefined || row.hint_en === null
        ? null
        : richText({ en: row.hint_en, ne: row.hint_ne ?? '' }, maths.hint, audience),
    caption: richText({ en: row.image_caption_en, ne: row.image_caption_ne }, maths.caption, audience),
  }
}

// A written question's model answer, rendered with the revision's other texts (issue 73).
export function modelAnswerOf(
  row: Pick<QuestionRevisionRow, 'model_answer_en' | 'model_answer_ne' | 'maths'>,
  audience: Audience,
): RichText {
  const source = { en: row.model_answer_en ?? '', ne: row.model_answer_ne ?? '' }
  return richText(source, parseStoredMaths(row.maths).model_answer, audience)
}

export function optionView<K extends 'svg' | 'svg_content'>(option: QuestionOptionRow, audience: Audience, svgKey: K) {
  const texts = richTextsOf(option, audience)
  return { id: option.id, text: texts.text, image: toImage(option, texts.caption, svgKey) }
}

type ImageRow = Pick<QuestionRevisionRow, 'image_svg' | 'image_picture' | 'image_width' | 'image_height'>

// `svgKey` is `svg` everywhere except report cards (`svg_content`).
export function toImage<K extends 'svg' | 'svg_content'>(
  row: ImageRow,
  caption: RichText,
  svgKey: K,
): ({ [P in K]: string | null } & { picture: Picture | null; caption: RichText }) | null {
  const picture =
    row.image_picture === null
      ? null
      : { url: picturePath(row.image_picture), width: row.image_width ?? 0, height: row.image_height ?? 0 }
  if (row.image_svg === null && picture === null) return null
  return { [svgKey]: row.image_svg, picture, caption } as { [P in K]: string | null } & {
    picture: Picture | null
    caption: RichText
  }
}
