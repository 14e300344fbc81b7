import {
  writtenAnswerMessages as messages,
  writtenAnswerLimits,
  type SavedWrittenAnswer,
  type WrittenPage,
  type WrittenResult,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { pagesCloseAt } from '../attempts/withheld-keys.service'
import { savePageImage } from '../db/page-images'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toIso } from '../lib/clock'
import { PHONE_TYPE, phoneRendition } from '../lib/page-renditions'
import { modelAnswerOf } from '../questions/question-revisions.repository'
import { keptPage, pageUrlKey, pageUrls, verifiedPage } from './answer-pages'
import {
  deletePage,
  findAnswer,
  findLearnerAttempt,
  findPageImage,
  findPhoneImage,
  findWrittenRevision,
  insertPage,
  listItemsOf,
  listPages,
  listSavedAnswers,
  numberPages,
  openAnswer,
  savePhoneImage,
  setAnswerText,
} from './answering.repository'
import { latestRegradeOf, regradeOpenUntil } from './regrades.service'
import { pageBytesOf, uploadQuotaExceeded } from './upload-quota.repository'

// API.md "Written answers marked by rubric": answering online and the learner's written results (docs/decisions/065).

/** Words as a reader counts them in Nepali and English alike: runs of anything but Unicode whitespace. */
export const wordCount = (text: string) => text.split(/\s+/u).filter((word) => word.length > 0).length

const uploadClosed = () => new Conflict(messages.uploadClosed, 'upload_closed')
const hundredths = (value: number) => value / 100

export function createAnsweringService({ database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const { db } = database
  const lock = database.dialect === 'postgres'
  const urlKey = pageUrlKey(config.jwtSecret)

  /** The learner's attempt and its written question, or 404 (another learner's attempt, a question not in it). */
  async function writtenQuestionOf(user: TokenUser, attemptId: number, questionId: number) {
    const attempt = await findLearnerAttempt(db, user.id, attemptId)
    if (!attempt) throw new NotFound(messages.attemptNotFound)
    const revision = await findWrittenRevision(db, JSON.parse(attempt.revision_ids) as number[], questionId)
    if (!revision) throw new NotFound(messages.questionNotFound)
    return { attempt, revision }
  }

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

  const pageOf = (page: { id: number; number: number; width: number; height: number }, now: number): WrittenPage => ({
    id: page.id,
    number: page.number,
    ...pageUrls(urlKey, page.id, now),
    width: page.width,
    height: page.height,
  })

  async function putText(user: TokenUser, attemptId: number, questionId: number, text: string) {
    const target = await writtenQuestionOf(user, attemptId, questionId)
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
    const target = await writtenQuestionOf(user, attemptId, questionId)
    checkOpen(target, 'pages', clock.now())
    const quota = config.uploadQuotaBytesPerLearner
    // A learner at the quota is refused before a decode; the page's own bytes are counted once it is made.
    if ((await pageBytesOf(db, user.id)) >= quota) throw uploadQuotaExceeded()
    // Decoded before the transaction: seconds of pixels hold no lock.
    const kept = await keptPage(bytes)
    const now = clock.now()
    checkOpen(target, 'pages', now)
    return database.transaction(async (trx) => {
      const answer = await openFor(trx, target, now)
      const pages = await listPages(trx, answer.id)
      const same = pages.find((page) => page.image_hash === kept.hash)
      if (same) return { created: false, page: pageOf(same, now) }
      if (pages.length >= writtenAnswerLimits.pages) throw new Conflict(messages.pageLimit, 'too_many_pages')
      const size = kept.data.length + (kept.phone_data?.length ?? 0)
      if ((await pageBytesOf(trx, user.id)) + size > quota) throw uploadQuotaExceeded()
      await savePageImage(trx, kept, now)
      const number = pages.length + 1
      const id = await insertPage(trx, answer.id, number, kept.hash, now)
      return { created: true, page: pageOf({ id, number, width: kept.width, height: kept.height }, now) }
    })
  }

  /** The pages left are numbered 1.. again in their order. */
  async function removePage(user: TokenUser, attemptId: number, questionId: number, pageId: number) {
    const target = await writtenQuestionOf(user, attemptId, questionId)
    const now = clock.now()
    checkOpen(target, 'pages', now)
    await database.transaction(async (trx) => {
      const answer = await openFor(trx, target, now)
      if (!(await deletePage(trx, answer.id, pageId))) throw new NotFound(messages.pageNotFound)
      await numberPages(
        trx,
        answer.id,
        (await listPages(trx, answer.id)).map((page) => page.id),
      )
    })
  }

  async function orderPages(user: TokenUser, attemptId: number, questionId: number, order: readonly number[]) {
    const target = await writtenQuestionOf(user, attemptId, questionId)
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
    return { pages: pages.map((page) => pageOf(page, now)) }
  }

  /** The learner's own written answer of a finished attempt; what marking gave only once released. */
  async function writtenResult(user: TokenUser, attemptId: number, questionId: number): Promise<WrittenResult> {
    const { attempt, revision } = await writtenQuestionOf(user, attemptId, questionId)
    if (attempt.status !== 'finished') throw new NotFound(messages.attemptNotFound)
    const now = clock.now()
    const answer = await findAnswer(db, attempt.id, questionId)
    const released = answer?.status === 'released'
    const pages = answer ? await listPages(db, answer.id) : []
    const items = released ? await listItemsOf(db, answer.id) : []
    return {
      status: released ? 'released' : 'submitted',
      marks: released ? hundredths(answer.score_hundredths ?? 0) : null,
      max_marks: hundredths(revision.marks ?? 0),
      items: items.map((item) => ({
        id: item.id,
        title: { en: item.title_en, ne: item.title_ne },
        points: hundredths(item.points),
        explanation:
          item.explanation_en === null && item.explanation_ne === null
            ? null
            : { en: item.explanation_en ?? '', ne: item.explanation_ne ?? '' },
      })),
      adjustment: released ? hundredths(answer.adjustment) : null,
      comment:
        released && (answer.comment_en !== null || answer.comment_ne !== null)
          ? { en: answer.comment_en ?? '', ne: answer.comment_ne ?? '' }
          : null,
      pages: pages.map((page) => {
        const { number: _number, ...shown } = pageOf(page, now)
        return { ...shown, annotations: released && page.annotations !== null ? JSON.parse(page.annotations) : null }
      }),
      text: answer?.text ?? '',
      word_count: answer?.word_count ?? 0,
      model_answer:
        released && (revision.model_answer_en || revision.model_answer_ne) ? modelAnswerOf(revision, 'learner') : null,
      regrade: {
        open_until: released && answer.released_at !== null ? toIso(regradeOpenUntil(answer.released_at)) : null,
        request: answer ? await latestRegradeOf(db, answer.id) : null,
      },
    }
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
        answer.pages.push(pageOf({ id: row.page_id, number: row.number, width: row.width, height: row.height }, now))
    }
    return saved
  }

  /**
   * A page's phone rendition, made and kept on its first request for a page kept before renditions were (decision
   * 078); the full page if its rendition cannot be made.
   */
  async function phoneImage(pageId: number) {
    const found = await findPhoneImage(db, pageId)
    if (!found) return
    if (found.phone_data) return { data: found.phone_data, content_type: PHONE_TYPE }
    const full = await findPageImage(db, pageId)
    if (!full) return
    const made = await phoneRendition(Buffer.from(full.data))
    if (!made) return full
    await savePhoneImage(db, found.hash, made)
    return { data: made, content_type: PHONE_TYPE }
  }

  /** A page's image by its signed address; a forged or expired one is as unknown as a missing page. */
  async function pageImage(params: { pageId: string; expires?: string; signature?: string; size?: 'phone' }) {
    const now = clock.now()
    const verified = verifiedPage(urlKey, params, now)
    const image =
      verified &&
      (params.size === 'phone' ? await phoneImage(verified.pageId) : await findPageImage(db, verified.pageId))
    if (!verified || !image) throw new NotFound(messages.pageNotFound)
    return { ...image, maxAgeSeconds: Math.floor((verified.expires - now) / 1000) }
  }

  return { putText, addPage, removePage, orderPages, writtenResult, savedAnswers, pageImage }
}

export type AnsweringService = ReturnType<typeof createAnsweringService>
