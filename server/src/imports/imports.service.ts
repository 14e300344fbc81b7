import {
  importMessages,
  picturePath,
  type ImportImage,
  type BankListQuerySchema,
  type ImportCommitResult,
  type ImportFields,
  type ImportFieldsSchema,
  type ImportCommitBodySchema,
  type ImportQuestion,
} from '@quiz/contracts'
import type { z } from 'zod'
import type { BankService } from '../admin/bank.service'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { PicturesService } from '../pictures/pictures.service'
import { AppError, NotFound, ValidationFailed, type FieldErrors } from '../http/errors'
import { decodeRaster, isDecodeRefusal } from '../lib/decode-gate'
import { findRevisions, insertBankQuestion } from '../questions/question-revisions.repository'
import { findAnswerKeys } from '../questions/answer-keys'
import { editorIsCorrect } from '../questions/answer-keys'
import { setTags } from '../questions/question-tags.repository'
import { appendFixedItems } from '../questions/quiz-papers.repository'
import { adminLimits, pictureLimits } from '@quiz/contracts'
import {
  bankQuestionsByHash,
  currentRevisionIds,
  deleteExpiredDryRuns,
  findDryRun,
  findLiveQuizFigures,
  insertDryRun,
  lockImportCommits,
} from './imports.repository'
import type { ImportInput } from './readers'
import { isImportable, namedRowErrors, type HashedRow } from './rows'
import type { ReadJob } from './worker/read-job'
import { PoolBusy, ReadRefused, sharedReadPool, type ReadPool } from './worker/pool'
import { writeXlsx, type SheetPicture } from './sheet'

const storedPicture = { maxPixels: pictureLimits.pixels, formats: ['webp'] }

type Fields = z.output<typeof ImportFieldsSchema>
type CommitBody = z.output<typeof ImportCommitBodySchema>
type BankQuery = z.output<typeof BankListQuerySchema>

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

const HOUR = 60 * 60 * 1000
const COMMIT_SLICE = 100

function* slices<T>(items: T[], size: number) {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size)
}

function refuseOverfullPaper(questions: number) {
  if (questions > adminLimits.maxQuestions)
    throw new ValidationFailed({
      quiz_id: [
        `This quiz's paper would hold ${questions} questions; a paper may hold at most ${adminLimits.maxQuestions}.`,
      ],
    })
}

const PICTURE_URLS = /\/api\/pictures\/([0-9a-f]{64})\.webp/g

export const unreadable = (detail: string) => new AppError(400, 'import_unreadable', detail)

export function createImportsService({
  database,
  clock,
  config,
  bank,
  pictures,
}: Pick<AppContext, 'database' | 'clock' | 'config'> & {
  bank: BankService
  pictures: Pick<PicturesService, 'saveEncoded' | 'alreadyStored' | 'read' | 'key'>
}) {
  const { db } = database
  let pool: ReadPool | null = null

  async function inWorker<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (error instanceof PoolBusy)
        throw new AppError(429, 'rate_limited', importMessages.busy, undefined, { 'retry-after': '30' })
      if (error instanceof ReadRefused) throw unreadable(importMessages.tooSlow)
      throw error
    }
  }

  async function readInWorker(job: ReadJob) {
    pool ??= sharedReadPool(config.imports)
    const result = await inWorker(() => pool!.read(job))
    if (result.ok) return result
    const { failure } = result
    if (failure.kind === 'columns') throw new ValidationFailed({ columns: [failure.message] })
    if (failure.kind === 'no_header')
      throw new AppError(400, 'import_unreadable', failure.message, undefined, undefined, {
        headings: failure.headings,
      })
    throw unreadable(failure.message)
  }

  // Short transactions (docs/decisions/043); a slice skips what the bank gained since, so a retried commit completes.
  async function writeSlice(rows: HashedRow[], importId: number, actor: UserActor, now: number) {
    return database.transaction(async (trx) => {
      await lockImportCommits(trx, database.dialect)
      const inBank = await bankQuestionsByHash(
        trx,
        rows.map((row) => row.hash!),
      )
      const questionIds: number[] = []
      for (const row of rows) {
        if (inBank.has(row.hash!)) continue
        const question = row.question
        const questionId = await insertBankQuestion(trx, question, now, question)
        await setTags(trx, questionId, question.tags)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'question',
          entityId: questionId,
          label: (question.text.en || question.text.ne).slice(0, 80),
          after: { import_id: importId, row: row.row, text: question.text, topic: question.topic },
        })
        questionIds.push(questionId)
      }
      return questionIds
    })
  }

  return {
    async dryRun(input: ImportInput, fields: Fields, actor: UserActor): Promise<string> {
      const read = await readInWorker({
        input: { ...input, columns: fields.columns },
        legacyFont: fields.legacy_font,
        pictureKey: pictures.key,
        defaults: { topic: fields.topic, tags: fields.tags, difficulty: fields.difficulty, source: fields.source },
      })
      if (read.count === 0)
        throw unreadable(
          'No questions were found: a spreadsheet needs rows under its header row, and text needs numbered questions with lettered options.',
        )
      const inBank = await bankQuestionsByHash(db, read.hashes)
      const settled = await inWorker(() => pool!.settle({ rowsJson: read.rowsJson, inBank: [...inBank] }))
      // A picture the bank holds, come back as the export's PNG of it, stays the stored one: its rows name that url.
      const stored = await pictures.alreadyStored(read.pictures)
      const toStored = (json: string) =>
        stored.size === 0
          ? json
          : json.replace(PICTURE_URLS, (url: string, hash: string) => stored.get(hash)?.url ?? url)
      const storedJson = toStored(settled.storedJson)
      const rowsJson = toStored(settled.rowsJson)
      await pictures.saveEncoded(
        // A Buffer crosses from the worker as a plain Uint8Array; the database drivers bind Buffers.
        read.pictures
          .filter((picture) => !stored.has(picture.hash))
          .map((picture) => ({
            ...picture,
            data: Buffer.from(picture.data.buffer, picture.data.byteOffset, picture.data.byteLength),
          })),
      )
      const now = clock.now()
      const expiresAt = now + config.importTtlHours * HOUR
      const importId = await database.transaction(async (trx) => {
        await deleteExpiredDryRuns(trx, now)
        return insertDryRun(trx, {
          createdBy: actor.id,
          format: read.format,
          rowsJson: storedJson,
          now,
          expiresAt,
        })
      })
      const head = { import_id: importId, format: read.format }
      const tail = { summary: settled.summary, expires_at: new Date(expiresAt).toISOString() }
      return `${JSON.stringify(head).slice(0, -1)},"rows":${rowsJson},${JSON.stringify(tail).slice(1)}`
    },

    async commit(importId: number, body: CommitBody, actor: UserActor): Promise<ImportCommitResult> {
      const dryRun = await findDryRun(db, importId, clock.now())
      if (!dryRun) throw new NotFound('This import is not found or has expired; upload the file again.')
      const errors: FieldErrors = {}
      let chosen: HashedRow[]
      if (body.rows) {
        const named = new Set(body.rows)
        Object.assign(errors, namedRowErrors(dryRun.rows, body.rows))
        chosen = dryRun.rows.filter((row) => named.has(row.row) && isImportable(row))
      } else chosen = dryRun.rows.filter(isImportable)

      const quiz = body.quiz_id === undefined ? undefined : await findLiveQuizFigures(db, body.quiz_id)
      if (body.quiz_id !== undefined && !quiz) errors.quiz_id = [importMessages.unknownQuiz]
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
      const inBank = await bankQuestionsByHash(
        db,
        chosen.map((row) => row.hash!),
      )
      const fresh = new Map<string, HashedRow>()
      for (const row of chosen) if (!inBank.has(row.hash!) && !fresh.has(row.hash!)) fresh.set(row.hash!, row)
      if (quiz) refuseOverfullPaper(quiz.question_count + fresh.size)

      const now = clock.now()
      const questionIds: number[] = []
      for (const slice of slices([...fresh.values()], COMMIT_SLICE)) {
        questionIds.push(...(await writeSlice(slice, importId, actor, now)))
        // A turn of the event loop between slices: learners' requests are answered while thousands are written.
        await new Promise((resolve) => setImmediate(resolve))
      }
      if (quiz && questionIds.length > 0)
        await database.transaction(async (trx) => {
          const current = (await findLiveQuizFigures(trx, quiz.id))!
          refuseOverfullPaper(current.question_count + questionIds.length)
          await appendFixedItems(trx, quiz.id, questionIds)
          await recordAudit(trx, actor, now, {
            action: 'update',
            entityType: 'quiz',
            entityId: quiz.id,
            label: quiz.title_en,
            after: { import_id: importId, added_question_ids: questionIds },
          })
        })
      return { imported: questionIds.length, duplicates: chosen.length - questionIds.length, question_ids: questionIds }
    },

    async exportXlsx(query: BankQuery): Promise<Buffer> {
      const questions: ImportQuestion[] = []
      for (let page = 1; ; page++) {
        const found = await bank.list({ ...query, page, page_size: 500 })
        const revisionOf = await currentRevisionIds(
          db,
          found.results.map((item) => item.id),
        )
        const revisions = await findRevisions(db, [...revisionOf.values()])
        // The key each question scores on: a spreadsheet taken elsewhere must not carry a key since corrected.
        const keys = await findAnswerKeys(db, revisions.keys())
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
        for (const image of [question.image, ...question.options.map((option) => option.image)]) {
          const picture = image?.picture
          if (!picture || pngs.has(picture.url)) continue
          const data = await pictures.read(picture.url.slice('/api/pictures/'.length, -'.webp'.length))
          const png = data && (await decodeRaster(data, storedPicture, (image) => image.png().toBuffer()))
          if (png && !isDecodeRefusal(png)) pngs.set(picture.url, { png, ...picture })
        }
      return writeXlsx(questions, undefined, (url) => pngs.get(url))
    },
  }
}

export type ImportsService = ReturnType<typeof createImportsService>
export type { ImportFields }
