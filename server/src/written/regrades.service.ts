import {
  fromHundredths,
  regradeLimits,
  regradeMessages,
  writtenAnswerMessages,
  type RegradeDecisionInput,
  type RegradeQueue,
  type RegradeQueueEntry,
  type RegradeRequest,
  type RegradeStatus,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toDevanagariDigits } from '../lib/digits'
import { toIso, toIsoOrNull } from '../lib/clock'
import { notify } from '../notifications/notifications.service'
import { rescore } from '../outcomes/outcomes.service'
import { findAnswer, findLearnerAttempt, findWrittenRevision } from './answering.repository'
import { anonymousCode } from './marking.repository'
import { writtenResultLink } from './result-link'
import {
  decideRequest,
  findAnswerAttempt,
  findLatestRequest,
  findRequestForDecision,
  findUnclosedRequest,
  insertRequest,
  isItemOfAnswer,
  listQueue,
  marksQuestion,
  settleRequest,
  type RegradeRow,
} from './regrades.repository'
import { quizTitles } from './written-answers.repository'

// Regrade requests (API.md "Written answers marked by rubric", docs/decisions/071): a learner asks within 7 days of
// the answer's release, one request not closed at a time; an admin, or a marker of that question in that quiz,
// accepts or rejects it; an accepted one is settled by marking the released answer again (marking-evaluation.ts calls
// `settleByMarking`), which re-scores the attempt through outcomes and tells the learner.

const DAY = 86_400_000
const notFound = () => new NotFound(regradeMessages.notFound)
const two = (hundredths: number) => (hundredths / 100).toFixed(2)

export const regradeOpenUntil = (releasedAt: number) => releasedAt + regradeLimits.days * DAY

export function toRegradeRequest(row: RegradeRow): RegradeRequest {
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    item_id: row.item_id,
    response: row.response,
    created_at: toIso(row.created_at),
    decided_at: toIsoOrNull(row.decided_at),
    settled_at: toIsoOrNull(row.settled_at),
    old_marks: row.old_marks === null ? null : fromHundredths(row.old_marks),
    new_marks: row.new_marks === null ? null : fromHundredths(row.new_marks),
  }
}

export async function latestRegradeOf(db: Kysely<DB>, answerId: number) {
  const row = await findLatestRequest(db, answerId)
  return row ? toRegradeRequest(row) : null
}

/** Admins see every request; a marker those of the questions they marked in that quiz. */
async function maySettle(db: Kysely<DB>, user: { id: number; isAdmin: boolean }, quizId: number, questionId: number) {
  return user.isAdmin || marksQuestion(db, user.id, quizId, questionId)
}

/** Null without an accepted request (a released answer is then not markable) or when the user may not settle it. */
export async function acceptedRequestOf(
  trx: Kysely<DB>,
  answer: { id: number; quiz_id: number; question_id: number },
  user: { id: number; isAdmin: boolean },
  lock: boolean,
) {
  const request = await findUnclosedRequest(trx, answer.id, { lock })
  if (request?.status !== 'accepted') return null
  if (!(await maySettle(trx, user, answer.quiz_id, answer.question_id))) return null
  return request
}

/** The caller has stored the answer's new marks; the request closes, and the learner is told. */
export async function settleByMarking(
  trx: Kysely<DB>,
  settling: { requestId: number; answerId: number; oldMarks: number; newMarks: number; settledBy: number },
  now: number,
) {
  const attempt = await findAnswerAttempt(trx, settling.answerId)
  const [moved] = await rescore(trx, [
    { attemptId: attempt.id, delta: { score_hundredths: settling.newMarks - settling.oldMarks } },
  ])
  await settleRequest(
    trx,
    settling.requestId,
    { oldMarks: settling.oldMarks, newMarks: settling.newMarks, settledBy: settling.settledBy },
    now,
  )
  const title = (await quizTitles(trx, [attempt.quiz_id])).get(attempt.quiz_id) ?? { en: '', ne: '' }
  await notify(
    trx,
    [
      moved
        ? {
            userId: attempt.user_id,
            kind: 'score_changed' as const,
            text: {
              en: `Your written answer in “${title.en}” was marked again after your regrade request: your score went from ${two(moved.before)} to ${two(moved.after)}.`,
              ne: `तपाईंको पुनर्जाँच अनुरोधपछि “${title.ne}” को लिखित उत्तर फेरि जाँचियो: तपाईंको अङ्क ${toDevanagariDigits(two(moved.before))} बाट ${toDevanagariDigits(two(moved.after))} भयो।`,
            },
            link: writtenResultLink(attempt.id, attempt.question_id),
          }
        : {
            userId: attempt.user_id,
            kind: 'regrade_decided' as const,
            text: {
              en: `Your written answer in “${title.en}” was marked again after your regrade request: its marks stay ${two(settling.newMarks)}.`,
              ne: `तपाईंको पुनर्जाँच अनुरोधपछि “${title.ne}” को लिखित उत्तर फेरि जाँचियो: अङ्क ${toDevanagariDigits(two(settling.newMarks))} नै रह्यो।`,
            },
            link: writtenResultLink(attempt.id, attempt.question_id),
          },
    ],
    now,
  )
}

export function createRegradeService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database
  const lock = database.dialect === 'postgres'

  /** The learner's request: 404 for another's attempt; 409 before release, after 7 days, or with one not closed. */
  async function request(
    user: TokenUser,
    attemptId: number,
    questionId: number,
    input: { message: string; item_id: number | null },
  ): Promise<RegradeRequest> {
    const attempt = await findLearnerAttempt(db, user.id, attemptId)
    if (!attempt || attempt.status !== 'finished') throw new NotFound(writtenAnswerMessages.attemptNotFound)
    const revision = await findWrittenRevision(db, JSON.parse(attempt.revision_ids) as number[], questionId)
    if (!revision) throw new NotFound(writtenAnswerMessages.questionNotFound)
    const answer = await findAnswer(db, attempt.id, questionId)
    if (answer?.status !== 'released' || answer.released_at === null)
      throw new Conflict(regradeMessages.notReleased, 'not_released')
    const now = clock.now()
    if (now > regradeOpenUntil(answer.released_at)) throw new Conflict(regradeMessages.closed, 'regrade_closed')
    if (input.item_id !== null && !(await isItemOfAnswer(db, input.item_id, answer.id)))
      throw new ValidationFailed({ item_id: [regradeMessages.unknownItem] })
    return database.transaction(async (trx) => {
      const id = await insertRequest(trx, { answer_id: answer.id, item_id: input.item_id, message: input.message }, now)
      if (id === null) throw new Conflict(regradeMessages.alreadyOpen, 'regrade_open')
      return toRegradeRequest((await findLatestRequest(trx, answer.id))!)
    })
  }

  function toEntry(row: Awaited<ReturnType<typeof listQueue>>['rows'][number]): RegradeQueueEntry {
    return {
      ...toRegradeRequest(row),
      answer_id: row.answer_id,
      anonymous_code: anonymousCode(row.answer_id),
      quiz: { id: row.quiz_id, title: { en: row.title_en, ne: row.title_ne || row.title_en } },
      question_id: row.question_id,
      item:
        row.item_id === null
          ? null
          : { id: row.item_id, title: { en: row.item_title_en ?? '', ne: row.item_title_ne ?? '' } },
      marks: row.score_hundredths === null ? null : fromHundredths(row.score_hundredths),
      max_marks: fromHundredths(row.marks ?? 0),
    }
  }

  async function queue(
    query: { status: RegradeStatus; quiz_id?: number; page: number },
    user: { id: number; isAdmin: boolean },
  ): Promise<RegradeQueue> {
    const { rows, total } = await listQueue(db, {
      status: query.status,
      quizId: query.quiz_id,
      markerId: user.isAdmin ? undefined : user.id,
      viewerId: user.id,
      limit: regradeLimits.pageSize,
      offset: (query.page - 1) * regradeLimits.pageSize,
    })
    return { count: total, page_size: regradeLimits.pageSize, results: rows.map(toEntry) }
  }

  /** Accepts or rejects an open request; a decided one -> 409; one the user may not settle is not found. */
  async function decide(
    requestId: number,
    input: RegradeDecisionInput,
    actor: UserActor,
    isAdmin: boolean,
  ): Promise<RegradeQueueEntry> {
    return database.transaction(async (trx) => {
      const now = clock.now()
      const request = await findRequestForDecision(trx, requestId, { lock })
      // One's own answer's request is not one's to decide, an admin's included (docs/decisions/090).
      if (
        !request ||
        request.user_id === actor.id ||
        !(await maySettle(trx, { id: actor.id, isAdmin }, request.quiz_id, request.question_id))
      )
        throw notFound()
      if (request.status !== 'open') throw new Conflict(regradeMessages.decided, 'regrade_decided')
      await decideRequest(trx, requestId, { status: input.status, response: input.response, decidedBy: actor.id }, now)
      await recordAudit(trx, actor, now, {
        // `update` of the answer (the web app labels every action; a new one would need its words there first).
        action: 'update',
        entityType: 'written_answer',
        entityId: request.answer_id,
        label: anonymousCode(request.answer_id),
        before: { regrade_id: requestId, status: 'open' },
        after: { regrade_id: requestId, status: input.status, response: input.response },
      })
      const title = (await quizTitles(trx, [request.quiz_id])).get(request.quiz_id) ?? { en: '', ne: '' }
      await notify(
        trx,
        [
          {
            userId: request.user_id,
            kind: 'regrade_decided',
            text:
              input.status === 'accepted'
                ? {
                    en: `Your regrade request in “${title.en}” was accepted: your answer will be marked again.`,
                    ne: `“${title.ne}” मा तपाईंको पुनर्जाँच अनुरोध स्वीकार भयो: तपाईंको उत्तर फेरि जाँचिनेछ।`,
                  }
                : {
                    en: `Your regrade request in “${title.en}” was not accepted. See the marker’s response.`,
                    ne: `“${title.ne}” मा तपाईंको पुनर्जाँच अनुरोध स्वीकार भएन। परीक्षकको जवाफ हेर्नुहोस्।`,
                  },
            link: writtenResultLink(request.attempt_id, request.question_id),
          },
        ],
        now,
      )
      const { rows } = await listQueue(trx, { requestId, limit: 1, offset: 0 })
      return toEntry(rows[0]!)
    })
  }

  return { request, queue, decide }
}

export type RegradeService = ReturnType<typeof createRegradeService>
