import { writtenAnswerMessages as messages, writtenAnswerLimits, type SavedWrittenAnswer } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { pagesCloseAt } from '../attempts/withheld-keys.service'
import { deletePageFiles, savePageImage, withStoredPages } from '../db/page-images'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { keptPage, pageUrlKey } from './answer-pages'
import {
  deletePage,
  insertPage,
  listPages,
  listSavedAnswers,
  numberPages,
  openAnswer,
  setAnswerText,
} from './answering.repository'
import { createAnswerReads, pageOf, writtenQuestionOf } from './answer-reads'
import { pageBytesOf, uploadQuotaExceeded } from './upload-quota.repository'

// API.md "Written answers marked by rubric": answering online and the learner's written results (docs/decisions/065).

/** Words as a reader counts them in Nepali and English alike: runs of anything but Unicode whitespace. */
export const wordCount = (text: string) => text.split(/\s+/u).filter((word) => word.length > 0).length

const uploadClosed = () => new Conflict(messages.uploadClosed, 'upload_closed')

export function createAnsweringService({
  database,
  clock,
  config,
  files,
}: Pick<AppContext, 'database' | 'clock' | 'config' | 'files'>) {
  const { db } = database
  const lock = database.dialect === 'postgres'
  const urlKey = pageUrlKey(config.jwtSecret)

  type Target = Awaited<ReturnType<typeof writtenQuestionOf>>

  /** Text while the attempt runs; pages until its upload window closes (`pagesCloseAt`), submitted or not. */
  function checkOpen({ attempt }: Target, what: 'text' | 'pages', now: number) {
    if (attempt.mode === 'paper') throw uploadClosed()
    const closesAt = what === 'text' ? attempt.deadline : pagesCloseAt(attempt)
    if (now > closesAt || (what === 'text' && attempt.status !== 'in_progress')) throw uploadClosed()
  }

  /** The answer, made if it has none, locked for the change; a marked one takes nothing more. */
  async function openFor(trx: Kysely<DB>, target: Target, now: number) {
    const answer = await openAnswer(
      trx,
      { attempt_id: target.attempt.id, question_id: target.revision.question_id, revision_id: target.revision.id },
      now,
      lock,
    )
    if (answer.status !== 'submitted') throw uploadClosed()
    return answer
  }

  async function putText(user: TokenUser, attemptId: number, questionId: number, text: string) {
    const target = await writtenQuestionOf(db, user, attemptId, questionId)
    const now = clock.now()
    checkOpen(target, 'text', now)
    const words = wordCount(text)
    await database.transaction(async (trx) => {
      const answer = await openFor(trx, target, now)
      await setAnswerText(trx, answer.id, text, words, now)
    })
    return { word_count: words }
  }

  /** A new page (201), or the page this very photo already is (200). */
  async function addPage(user: TokenUser, attemptId: number, questionId: number, bytes: Buffer) {
    const target = await writtenQuestionOf(db, user, attemptId, questionId)
    checkOpen(target, 'pages', clock.now())
    const quota = config.uploadQuotaBytesPerLearner
    // A learner at the quota is refused before a decode; the page's own bytes are counted once it is made.
    if ((await pageBytesOf(db, user.id)) >= quota) throw uploadQuotaExceeded()
    // Decoded before the transaction: seconds of pixels hold no lock.
    const kept = await keptPage(bytes)
    const now = clock.now()
    checkOpen(target, 'pages', now)
    // The files go to the store first (no lock held on the store's time); a refusal below removes them again.
    return withStoredPages(files, db, [kept], ([stored]) =>
      database.transaction(async (trx) => {
        const answer = await openFor(trx, target, now)
        const pages = await listPages(trx, answer.id)
        const same = pages.find((page) => page.image_hash === kept.hash)
        if (same) return { created: false, page: pageOf(urlKey, same, now) }
        if (pages.length >= writtenAnswerLimits.pages) throw new Conflict(messages.pageLimit, 'too_many_pages')
        const size = kept.data.length + (kept.phone_data?.length ?? 0)
        if ((await pageBytesOf(trx, user.id)) + size > quota) throw uploadQuotaExceeded()
        await savePageImage(trx, stored!, now)
        const number = pages.length + 1
        const id = await insertPage(trx, answer.id, number, kept.hash, now)
        return { created: true, page: pageOf(urlKey, { id, number, width: kept.width, height: kept.height }, now) }
      }),
    )
  }

  /** The pages left are numbered 1.. again in their order. */
  async function removePage(user: TokenUser, attemptId: number, questionId: number, pageId: number) {
    const target = await writtenQuestionOf(db, user, attemptId, questionId)
    const now = clock.now()
    checkOpen(target, 'pages', now)
    const removed = await database.transaction(async (trx) => {
      const answer = await openFor(trx, target, now)
      const images = await deletePage(trx, answer.id, pageId)
      if (!images) throw new NotFound(messages.pageNotFound)
      await numberPages(
        trx,
        answer.id,
        (await listPages(trx, answer.id)).map((page) => page.id),
      )
      return images
    })
    // Only once the rows are gone for good: a rolled-back removal keeps its files.
    await deletePageFiles(files, removed)
  }

  async function orderPages(user: TokenUser, attemptId: number, questionId: number, order: readonly number[]) {
    const target = await writtenQuestionOf(db, user, attemptId, questionId)
    const now = clock.now()
    checkOpen(target, 'pages', now)
    const pages = await database.transaction(async (trx) => {
      const answer = await openFor(trx, target, now)
      const ids = (await listPages(trx, answer.id)).map((page) => page.id)
      const exact = order.length === ids.length && new Set(order).size === order.length
      if (!exact || !order.every((id) => ids.includes(id)))
        throw new ValidationFailed({ order: [messages.pageOrder] }, messages.pageOrder)
      await numberPages(trx, answer.id, order)
      return listPages(trx, answer.id)
    })
    return { pages: pages.map((page) => pageOf(urlKey, page, now)) }
  }

  /**
   * What the learner saved of a running attempt's written answers, for its start or resume (attempts/ asks, having
   * found the attempt among the learner's own): text, words and pages at signed addresses, by question id. Questions
   * with nothing saved are not in it.
   */
  async function savedAnswers(attemptId: number, now: number): Promise<Record<string, SavedWrittenAnswer>> {
    const saved: Record<string, SavedWrittenAnswer> = {}
    for (const row of await listSavedAnswers(db, attemptId)) {
      const answer = (saved[row.question_id] ??= { text: row.text, word_count: row.word_count, pages: [] })
      if (row.page_id !== null && row.number !== null && row.width !== null && row.height !== null)
        answer.pages.push(
          pageOf(urlKey, { id: row.page_id, number: row.number, width: row.width, height: row.height }, now),
        )
    }
    return saved
  }

  return {
    putText,
    addPage,
    removePage,
    orderPages,
    savedAnswers,
    ...createAnswerReads({ database, clock, config, files }),
  }
}

export type AnsweringService = ReturnType<typeof createAnsweringService>
