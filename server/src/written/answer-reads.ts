import { writtenAnswerMessages as messages, type WrittenPage, type WrittenResult } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { NotFound } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toIso } from '../lib/clock'
import { PHONE_TYPE, phoneRendition } from '../lib/page-renditions'
import { modelAnswerOf } from '../questions/question-revisions.repository'
import { pageUrlKey, pageUrls, verifiedPage } from './answer-pages'
import {
  findAnswer,
  findLearnerAttempt,
  findPageImage,
  findPhoneImage,
  findWrittenRevision,
  listItemsOf,
  listPages,
} from './answering.repository'
import { pageBytes, phoneBytes, savePhoneRendition } from '../db/page-images'
import { MAX_SIGNED_SECONDS, signedAddress } from '../files'
import { latestRegradeOf, regradeOpenUntil } from './regrades.service'

// The learner's written results and the page images at their signed addresses (docs/decisions/065, 078).

/** The learner's attempt and its written question, or 404 (another learner's attempt, a question not in it). */
export async function writtenQuestionOf(db: Kysely<DB>, user: TokenUser, attemptId: number, questionId: number) {
  const attempt = await findLearnerAttempt(db, user.id, attemptId)
  if (!attempt) throw new NotFound(messages.attemptNotFound)
  const revision = await findWrittenRevision(db, JSON.parse(attempt.revision_ids) as number[], questionId)
  if (!revision) throw new NotFound(messages.questionNotFound)
  return { attempt, revision }
}

export const pageOf = (
  urlKey: Buffer,
  page: { id: number; number: number; width: number; height: number },
  now: number,
): WrittenPage => ({
  id: page.id,
  number: page.number,
  ...pageUrls(urlKey, page.id, now),
  width: page.width,
  height: page.height,
})

const hundredths = (value: number) => value / 100

export function createAnswerReads({
  database,
  clock,
  config,
  files,
}: Pick<AppContext, 'database' | 'clock' | 'config' | 'files'>) {
  const { db } = database
  const urlKey = pageUrlKey(config.jwtSecret)

  /** The learner's own written answer of a finished attempt; what marking gave only once released. */
  async function writtenResult(user: TokenUser, attemptId: number, questionId: number): Promise<WrittenResult> {
    const { attempt, revision } = await writtenQuestionOf(db, user, attemptId, questionId)
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
        const { number: _number, ...shown } = pageOf(urlKey, page, now)
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
   * A page's phone rendition, made and kept on its first request for a page kept before renditions were (decision
   * 078); the full page if its rendition cannot be made.
   */
  async function phoneImage(pageId: number) {
    const found = await findPhoneImage(db, pageId)
    if (!found) return
    const kept = await phoneBytes(files, found)
    if (kept) return { data: kept, content_type: PHONE_TYPE }
    const full = await fullImage(pageId)
    if (!full) return
    const made = await phoneRendition(full.data)
    if (!made) return full
    await savePhoneRendition(files, db, found.hash, made)
    return { data: made, content_type: PHONE_TYPE }
  }

  /** The page as kept, from the file store or, for a page kept before it, its row (docs/decisions/105). */
  async function fullImage(pageId: number) {
    const found = await findPageImage(db, pageId)
    const data = found && (await pageBytes(files, found))
    return data && { data, content_type: found.content_type }
  }

  /**
   * With S3_SIGNED_REDIRECTS: the store's own signed address of a page the app's signed address let through, living
   * no longer than the app's and at most 5 minutes; undefined where the app serves the bytes (a page kept before the
   * store, a phone rendition not made yet).
   */
  async function signedPage(pageId: number, size: 'phone' | undefined, leftMs: number) {
    if (!config.signedRedirects) return undefined
    const seconds = Math.min(Math.floor(leftMs / 1000), MAX_SIGNED_SECONDS)
    const found = size === 'phone' ? await findPhoneImage(db, pageId) : await findPageImage(db, pageId)
    if (!found) return undefined
    const key = 'phone_key' in found ? found.phone_key : found.data_key
    const contentType = 'phone_key' in found ? PHONE_TYPE : found.content_type
    const url = await signedAddress(files, true, key, { seconds, contentType })
    return url === undefined ? undefined : { redirect: url, maxAgeSeconds: seconds }
  }

  /** A page's image by its signed address; a forged or expired one is as unknown as a missing page. */
  async function pageImage(params: { pageId: string; expires?: string; signature?: string; size?: 'phone' }) {
    const now = clock.now()
    const verified = verifiedPage(urlKey, params, now)
    const redirect = verified && (await signedPage(verified.pageId, params.size, verified.expires - now))
    if (redirect) return redirect
    const image =
      verified && (params.size === 'phone' ? await phoneImage(verified.pageId) : await fullImage(verified.pageId))
    if (!verified || !image) throw new NotFound(messages.pageNotFound)
    return { ...image, maxAgeSeconds: Math.floor((verified.expires - now) / 1000) }
  }

  return { writtenResult, pageImage }
}
