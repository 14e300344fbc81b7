import {
  markingLimits,
  markingMessages,
  type MarkingAnswer,
  type MarkingOverview,
  type MarkingQuizzes,
} from '@quiz/contracts'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { Conflict } from '../http/errors'
import { pageUrlKey } from './answer-pages'
import { reaches, type MarkingUser } from './marker-reach'
import { describeForMarking } from './marking-answer'
import { createMarkingEvaluation } from './marking-evaluation'
import { notFound, quizExists, writtenQuestionsOf } from './marking-quiz'
import { createMarkingRelease } from './marking-release'
import { anonymousCode, claimNextAnswer, endClaim, findAnswerForMarking, listQuizzesToMark } from './marking.repository'

// Markers' queue, marks, claims and release (API.md "Written answers marked by rubric", docs/decisions/068).

const CLAIM_MS = markingLimits.claimMinutes * 60_000

export function createMarkingService(deps: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const { database, clock, config } = deps
  const urlKey = pageUrlKey(config.jwtSecret)
  const { db } = database
  const postgres = database.dialect === 'postgres'

  async function overview(quizId: number): Promise<MarkingOverview> {
    await quizExists(db, quizId)
    const { numbered, counts } = await writtenQuestionsOf(db, quizId, clock.now())
    const byQuestion = new Map(counts.map((row) => [row.question_id, row]))
    return {
      questions: numbered.map(({ questionId, number }) => {
        const row = byQuestion.get(questionId)
        return {
          question_id: questionId,
          number,
          submitted: Number(row?.submitted ?? 0),
          marked: Number(row?.marked ?? 0),
          released: Number(row?.released ?? 0),
          claimed: Number(row?.claimed ?? 0),
        }
      }),
    }
  }

  /** A marker's way in: the quizzes with written answers, newest activity first (docs/decisions/094). */
  async function quizzes(page: number, readerId: number): Promise<MarkingQuizzes> {
    const pageSize = markingLimits.quizzesPageSize
    const { count, rows } = await listQuizzesToMark(db, { readerId, limit: pageSize, offset: (page - 1) * pageSize })
    return {
      count,
      page_size: pageSize,
      quizzes: rows.map((row) => ({
        id: row.id,
        // Nepali as stored, '' when none: the web app shows English then, marked with its `lang`.
        title: { en: row.title_en, ne: row.title_ne },
        questions: Number(row.questions),
        submitted: Number(row.submitted),
        marked: Number(row.marked),
        released: Number(row.released),
        to_mark: Number(row.to_mark),
        last_activity: new Date(Number(row.last_activity)).toISOString(),
      })),
    }
  }

  /** The next unmarked answer of the quiz's written question, claimed for 10 minutes; null when none is left. */
  async function next(quizId: number, questionId: number, actor: UserActor): Promise<MarkingAnswer | null> {
    await quizExists(db, quizId)
    const now = clock.now()
    const { numbered } = await writtenQuestionsOf(db, quizId, now)
    if (!numbered.some((question) => question.questionId === questionId)) throw notFound()
    return database.transaction(async (trx) => {
      const answerId = await claimNextAnswer(trx, {
        quizId,
        questionId,
        markerId: actor.id,
        now,
        until: now + CLAIM_MS,
        skipLocked: postgres,
      })
      return answerId === undefined ? null : describeForMarking(trx, answerId, { urlKey, clock })
    })
  }

  /** Ends the actor's claim (an admin may end anyone's); another marker's live claim -> 409. No claim: nothing. */
  async function endAnswerClaim(answerId: number, actor: UserActor, isAdmin: boolean) {
    await database.transaction(async (trx) => {
      const now = clock.now()
      const answer = await findAnswerForMarking(trx, answerId, { lock: postgres })
      if (!answer || !(await reaches(trx, answer, { id: actor.id, isAdmin }, postgres))) throw notFound()
      if (answer.claimed_by === null || (answer.claimed_until ?? 0) <= now) return
      if (answer.claimed_by !== actor.id && !isAdmin)
        throw new Conflict(markingMessages.claimedByOther, 'claimed_by_other')
      await endClaim(trx, answerId)
      await recordAudit(trx, actor, now, {
        action: 'claim_end',
        entityType: 'written_answer',
        entityId: answerId,
        label: anonymousCode(answer.id),
        before: { claimed_by: answer.claimed_by },
        after: { claimed_by: null },
      })
    })
  }

  /** One answer of a finished attempt, as `next` shows it, with its marks if marked: to mark it again. */
  async function answer(answerId: number, user: MarkingUser): Promise<MarkingAnswer> {
    const found = await findAnswerForMarking(db, answerId)
    if (!found || found.attempt_status !== 'finished' || !(await reaches(db, found, user))) throw notFound()
    return describeForMarking(db, answerId, { urlKey, clock })
  }

  return {
    overview,
    quizzes,
    answer,
    next,
    ...createMarkingEvaluation(deps),
    endClaim: endAnswerClaim,
    ...createMarkingRelease(deps),
  }
}

export type MarkingService = ReturnType<typeof createMarkingService>
