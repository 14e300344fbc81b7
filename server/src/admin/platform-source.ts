import { fromHundredths, PICTURE_URL_PATTERN, picturePath } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { currentRequestScope, inRequestScope } from '../db/request-scope'
import type { DB } from '../db/schema'
import { PLATFORM_INSTITUTE_ID } from '../db/tenancy'
import { editorIsCorrect, findAnswerKeys, type AnswerKey } from '../questions/answer-keys'
import {
  findRevisions,
  type QuestionContent,
  type RevisionWithOptions,
  type StoredImage,
} from '../questions/question-revisions.repository'
import { currentRevisionsOf, findBankQuestion, tagsOf } from './bank.repository'
import { questionNotFound } from './bank-reads'

// The platform's bank is the bank of a reserved institute (docs/decisions/101). An institute's request reads it only
// by entering that institute's scope for the read; under row security the read's session is the platform's too.

/** Runs `work` as the platform's bank: every query held to the reserved institute, whatever the request's own. */
export function inPlatformBank<T>(work: () => T): T {
  const scope = currentRequestScope() ?? { requestId: 'platform-bank' }
  return inRequestScope({ ...scope, institute: PLATFORM_INSTITUTE_ID }, work)
}

/** The current revision of each live platform question named (a deleted one is absent). */
export function platformRevisions(db: Kysely<DB>, questionIds: readonly number[]): Promise<Map<number, number>> {
  if (questionIds.length === 0) return Promise.resolve(new Map())
  return inPlatformBank(() => currentRevisionsOf(db, questionIds))
}

/** Fills `update_available` of copies: their source has a revision they have not taken. */
export async function withUpdates<
  T extends { copied_from: { platform_question_id: number; revision: number } | null; update_available: boolean },
>(db: Kysely<DB>, questions: T[]): Promise<T[]> {
  const copies = questions.filter((question) => question.copied_from !== null)
  const current = await platformRevisions(
    db,
    copies.map((question) => question.copied_from!.platform_question_id),
  )
  return questions.map((question) => {
    const source = question.copied_from && current.get(question.copied_from.platform_question_id)
    return source === undefined || source === null
      ? question
      : { ...question, update_available: source !== question.copied_from!.revision }
  })
}

function storedImage(row: {
  image_svg: string | null
  image_picture: string | null
  image_width: number | null
  image_height: number | null
  image_caption_en: string
  image_caption_ne: string
}): StoredImage | null {
  if (row.image_svg === null && row.image_picture === null) return null
  return {
    svg: row.image_svg,
    // Content-addressed: the copy names the same stored bytes.
    picture:
      row.image_picture === null
        ? null
        : { url: picturePath(row.image_picture), width: row.image_width ?? 0, height: row.image_height ?? 0 },
    caption: { en: row.image_caption_en, ne: row.image_caption_ne },
  }
}

/** A revision as it was written, for writing again in another institute's bank. */
function contentOf(revision: RevisionWithOptions, key: AnswerKey | undefined): QuestionContent {
  const written = revision.type === 'written'
  return {
    text: { en: revision.text_en, ne: revision.text_ne },
    hint: revision.hint_en === null ? null : { en: revision.hint_en, ne: revision.hint_ne },
    topic: revision.topic,
    image: storedImage(revision),
    options: revision.options.map((option) => ({
      text: { en: option.text_en, ne: option.text_ne },
      // The key decided since it was written, as the editor shows it.
      is_correct: editorIsCorrect(option.id, option.is_correct === 1, key),
      image: storedImage(option),
    })),
    type: revision.type,
    marks: written && revision.marks !== null ? fromHundredths(revision.marks) : null,
    word_limit: written ? revision.word_limit : null,
    model_answer:
      written && revision.model_answer_en !== null
        ? { en: revision.model_answer_en, ne: revision.model_answer_ne ?? '' }
        : null,
  }
}

/** The stored pictures a content names: the copying institute records its use of them (decision 100). */
export function pictureHashesOf(content: QuestionContent): string[] {
  return [content.image, ...content.options.map((option) => option.image)].flatMap((image) => {
    const picture = image?.picture
    const hash = picture && typeof picture !== 'string' ? PICTURE_URL_PATTERN.exec(picture.url)?.[1] : undefined
    return hash === undefined ? [] : [hash]
  })
}

export interface PlatformSource {
  questionId: number
  revision: number
  content: QuestionContent
  tags: string[]
  difficulty: string | null
  source: string | null
}

/** A live platform bank question as written, read in the platform's scope; 404 if there is none. */
export async function readPlatformSource(db: Kysely<DB>, questionId: number): Promise<PlatformSource> {
  const found = await findPlatformSource(db, questionId)
  if (!found) throw questionNotFound()
  return found
}

/** A live platform bank question as written, read in the platform's scope, if there is one. */
export function findPlatformSource(db: Kysely<DB>, questionId: number): Promise<PlatformSource | undefined> {
  return inPlatformBank(async () => {
    const row = await findBankQuestion(db, questionId)
    if (!row) return undefined
    const [revisions, keys, tags] = await Promise.all([
      findRevisions(db, [row.revision_id]),
      findAnswerKeys(db, [row.revision_id]),
      tagsOf(db, [questionId]),
    ])
    return {
      questionId,
      revision: row.revision_id,
      content: contentOf(revisions.get(row.revision_id)!, keys.get(row.revision_id)),
      tags: tags.get(questionId) ?? [],
      difficulty: row.difficulty,
      source: row.source,
    }
  })
}
