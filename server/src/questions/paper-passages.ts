import type { Kysely } from 'kysely'
import type { LearnerPassage } from '@quiz/contracts'
import type { DB, PassageRow } from '../db/schema'
import type { PaperQuestion } from './question-papers'
import { findPassages, passageOfQuestions, passagesOfRevisions } from './passages.repository'
import { parseStoredMaths, richText, storedMaths } from '../maths/rich-text'
import { imageColumns, toImage, type StoredImage } from './question-revisions.repository'
import type { PassageValues } from './passages.repository'

/** The paper's questions, each naming its passage and carrying it for the question route. */
export async function withPassages(db: Kysely<DB>, questions: PaperQuestion[]): Promise<PaperQuestion[]> {
  const membership = await passageOfQuestions(
    db,
    questions.map((question) => question.questionId),
  )
  if (membership.size === 0) return questions
  const passages = new Map<number, LearnerPassage>(
    (await findPassages(db, [...membership.values()])).map((row) => [row.id, passageView(row, 'learner')]),
  )
  return questions.map((question) => {
    const passage = passages.get(membership.get(question.questionId) ?? 0)
    if (!passage) return question
    return { ...question, passageId: passage.id, learner: { ...question.learner, passage } }
  })
}

/**
 * The paper's passages once each, and its questions naming theirs by `passage_id` (the offline paper and a live
 * mock's paper ahead): 10 passages under 100 questions are sent 10 times, not 100 (API.md's budget).
 */
export function passagesOnce<Q extends { passage: LearnerPassage | null }>(questions: readonly Q[]) {
  const passages = new Map<number, LearnerPassage>()
  const named = questions.map(({ passage, ...question }) => {
    if (passage) passages.set(passage.id, passage)
    return { ...question, passage_id: passage?.id ?? null }
  })
  return { passages: [...passages.values()], questions: named }
}

/** The columns of a passage as sent (its picture already stored by admin/image-fields.ts). */
export function passageValues(input: { text: { en: string; ne: string }; image: StoredImage | null }): PassageValues {
  const caption = input.image?.caption ?? null
  return {
    text_en: input.text.en,
    text_ne: input.text.ne,
    maths: storedMaths({ text: input.text, caption }),
    ...imageColumns(input.image),
    image_caption_en: caption?.en ?? '',
    image_caption_ne: caption?.ne ?? '',
  }
}

/** Text and picture as an admin or a learner reads them (maths rendered when written, as a question's). */
export function passageView<K extends 'svg' | 'svg_content' = 'svg'>(
  row: PassageRow,
  audience: 'admin' | 'learner',
  svgKey: K = 'svg' as K,
) {
  const maths = parseStoredMaths(row.maths)
  const caption = richText({ en: row.image_caption_en, ne: row.image_caption_ne }, maths.caption, audience)
  return {
    id: row.id,
    text: richText({ en: row.text_en, ne: row.text_ne }, maths.text, audience),
    image: toImage(row, caption, svgKey),
  }
}

/** Each revision's passage as a report card shows it (its picture's SVG as `svg_content`, as the report's questions). */
export async function reportPassages(db: Kysely<DB>, revisionIds: readonly number[]) {
  const membership = await passagesOfRevisions(db, revisionIds)
  const byRevision = new Map<number, ReturnType<typeof passageView<'svg_content'>>>()
  if (membership.size === 0) return byRevision
  const ids = [...membership.values()].map((place) => place.passageId)
  const rows = new Map((await findPassages(db, ids)).map((row) => [row.id, row]))
  for (const [revisionId, { passageId }] of membership) {
    const row = rows.get(passageId)
    if (row) byRevision.set(revisionId, passageView(row, 'learner', 'svg_content'))
  }
  return byRevision
}
