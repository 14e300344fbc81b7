import { picturePath, pictureLimits, type BankListQuerySchema, type ImportImage } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { BankService } from '../admin/bank.service'
import type { DB } from '../db/schema'
import { decodeRaster, isDecodeRefusal } from '../lib/decode-gate'
import type { PicturesService } from '../pictures/pictures.service'
import { findAnswerKeys, editorIsCorrect } from '../questions/answer-keys'
import { findPassages, passageOfQuestions, questionIdsOf } from '../questions/passages.repository'
import { findRevisions, numericKeyOf } from '../questions/question-revisions.repository'
import { currentRevisionIds } from './imports.repository'
import { writeXlsx, type SheetPicture, type SheetQuestion } from './sheet'

type BankQuery = z.output<typeof BankListQuerySchema>
type ExportedQuestion = SheetQuestion & { id: number; passageId: number | null }

const storedPicture = { maxPixels: pictureLimits.pixels, formats: ['webp'] }

type ImageColumns = {
  image_picture: string | null
  image_width: number | null
  image_height: number | null
  image_caption_en: string
  image_caption_ne: string
}
/** A revision's or option's stored picture as the export writes it (SVG drawings are not exported: decision 032). */
const exportedImage = (row: ImageColumns): ImportImage =>
  row.image_picture === null
    ? null
    : {
        svg: null,
        picture: { url: picturePath(row.image_picture), width: row.image_width ?? 0, height: row.image_height ?? 0 },
        caption: { en: row.image_caption_en, ne: row.image_caption_ne },
      }

export async function exportBankXlsx(
  { db, bank, pictures }: { db: Kysely<DB>; bank: BankService; pictures: Pick<PicturesService, 'read'> },
  query: BankQuery,
): Promise<Buffer> {
  const questions: ExportedQuestion[] = []
  for (let page = 1; ; page++) {
    const found = await bank.list({ ...query, page, page_size: 500 })
    const revisionOf = await currentRevisionIds(
      db,
      found.results.map((item) => item.id),
    )
    const revisions = await findRevisions(db, [...revisionOf.values()])
    // The key each question scores on: a spreadsheet taken elsewhere must not carry a key since corrected.
    const keys = await findAnswerKeys(db, revisions.keys())
    const passageOf = await passageOfQuestions(
      db,
      found.results.map((item) => item.id),
    )
    const passages = new Map(
      (await findPassages(db, [...passageOf.values()])).map((row) => [
        row.id,
        { text: { en: row.text_en, ne: row.text_ne }, image: exportedImage(row) },
      ]),
    )
    for (const item of found.results) {
      const revision = revisions.get(revisionOf.get(item.id)!)
      if (!revision) continue
      const key = keys.get(revision.id)
      questions.push({
        text: { en: revision.text_en, ne: revision.text_ne },
        hint: revision.hint_en === null ? null : { en: revision.hint_en, ne: revision.hint_ne },
        topic: revision.topic,
        image: exportedImage(revision),
        options: revision.options.map((option) => ({
          text: { en: option.text_en, ne: option.text_ne },
          is_correct: editorIsCorrect(option.id, option.is_correct === 1, key),
          image: exportedImage(option),
        })),
        tags: item.tags,
        difficulty: item.difficulty,
        source: item.source,
        id: item.id,
        passageId: passageOf.get(item.id) ?? null,
        passage: passages.get(passageOf.get(item.id)!) ?? null,
        ...(revision.type === 'multiple' && { type: 'multiple' as const }),
        ...(revision.type === 'numeric' && {
          type: 'numeric' as const,
          answer: key?.answer ?? numericKeyOf(revision),
          decimals: revision.decimals,
        }),
        ...(revision.type === 'written' && {
          type: 'written' as const,
          marks: item.marks,
          word_limit: revision.word_limit,
          model_answer:
            revision.model_answer_en === null
              ? null
              : { en: revision.model_answer_en, ne: revision.model_answer_ne ?? '' },
        }),
      })
    }
    if (found.results.length < 500) break
  }
  const pngs = new Map<string, SheetPicture>()
  for (const question of questions)
    for (const image of [question.image, ...question.options.map((option) => option.image), question.passage?.image]) {
      const picture = image?.picture
      if (!picture || pngs.has(picture.url)) continue
      const data = await pictures.read(picture.url.slice('/api/pictures/'.length, -'.webp'.length))
      const png = data && (await decodeRaster(data, storedPicture, (image) => image.png().toBuffer()))
      if (png && !isDecodeRefusal(png)) pngs.set(picture.url, { png, ...picture })
    }
  return writeXlsx(await passagesTogether(db, questions), undefined, (url) => pngs.get(url))
}

/**
 * A passage's questions written together at its first question's place, in the passage's order: the import gives
 * rows of one passage text the passage in row order, so an export read back keeps each passage as it was.
 */
async function passagesTogether(db: Kysely<DB>, questions: ExportedQuestion[]): Promise<SheetQuestion[]> {
  const passageIds = [
    ...new Set(questions.flatMap((question) => (question.passageId === null ? [] : [question.passageId]))),
  ]
  const order = await questionIdsOf(db, passageIds)
  const byId = new Map(questions.map((question) => [question.id, question]))
  const written = new Set<number>()
  const out: SheetQuestion[] = []
  for (const question of questions) {
    if (question.passageId === null) out.push(question)
    else if (!written.has(question.passageId)) {
      written.add(question.passageId)
      for (const id of order.get(question.passageId) ?? []) {
        const member = byId.get(id)
        if (member) out.push(member)
      }
    }
  }
  return out
}
