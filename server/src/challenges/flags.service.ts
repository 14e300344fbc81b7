import type { Flag, FlagRequestSchema, Regrade } from '@quiz/contracts'
import { challengeMessages } from '@quiz/contracts'
import { numberRefusals, readNumber } from '@quiz/contracts/rules/numbers'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { AppError, Conflict, NotFound, ValidationFailed } from '../http/errors'
import type { TokenUser } from '../http/tokens'
import { toIso } from '../lib/clock'
import { toScore } from '../questions/scoring'
import { attemptColumns } from '../attempts/attempts.service'
import { challengeWindowClosesAt, liveTimes, type LiveColumns } from '../attempts/live-window.service'
import { createKeyWithholding } from '../attempts/withheld-keys.service'
import {
  findAttemptForFlag,
  findFlagsOfLearner,
  findRevisionOfQuestion,
  findRevisionOptionIds,
  listRegradesOfAttempt,
  upsertFlag,
  type FlagRow,
} from './challenges.repository'
import { refusedAfterCommit } from '../http/refusals'

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * When a finished attempt's window to challenge the key closes: the quiz's current `challenge_days` after it ended,
 * or, for a live mock, after its common end (every attempt's, practice ones too: API.md "Answer-key challenges").
 */
export function challengeClosesAt(
  attempt: { finished_at: number | null; deadline: number; challenge_days: number } & LiveColumns,
) {
  const times = liveTimes(attempt)
  if (times) return challengeWindowClosesAt(times, attempt.challenge_days)
  return (attempt.finished_at ?? attempt.deadline) + attempt.challenge_days * DAY_MS
}

export const toFlagDto = (flag: FlagRow): Flag => ({
  id: flag.id,
  question_id: flag.question_id,
  reason: flag.reason as Flag['reason'],
  proposed_option_id: flag.proposed_option_id,
  proposed_option_ids: flag.proposed_option_ids === null ? null : (JSON.parse(flag.proposed_option_ids) as number[]),
  proposed_value: flag.proposed_value,
  note: flag.note,
  status: flag.status,
})

export async function findReportChallenges(
  db: Kysely<DB>,
  userId: number,
  attemptId: number,
  revisionIds: readonly number[],
) {
  const [flags, regrades] = await Promise.all([
    findFlagsOfLearner(db, userId, revisionIds),
    listRegradesOfAttempt(db, attemptId),
  ])
  const flagOf = new Map(flags.map((flag) => [flag.revision_id, toFlagDto(flag)]))
  const byQuestion = new Map<number, { old: number; latest: (typeof regrades)[number] }>()
  for (const regrade of regrades) {
    const seen = byQuestion.get(regrade.question_id)
    byQuestion.set(regrade.question_id, { old: seen?.old ?? regrade.old_marks, latest: regrade })
  }
  const regradeOf = new Map<number, Regrade>()
  for (const [questionId, { old, latest }] of byQuestion) {
    if (old === latest.new_marks) continue
    regradeOf.set(questionId, {
      old_marks: toScore(old),
      new_marks: toScore(latest.new_marks),
      decided_at: toIso(latest.created_at),
      note: latest.note,
    })
  }
  return {
    flagOf: (revisionId: number) => flagOf.get(revisionId) ?? null,
    regradeOf: (questionId: number) => regradeOf.get(questionId) ?? null,
  }
}

type FlagBody = z.output<typeof FlagRequestSchema>

export function createFlagsService({ database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const withholding = createKeyWithholding({ graceMs: config.submitGraceSeconds * 1000 })
  /** API.md: a learner flags a question of a finished attempt, inside its quiz's challenge window. */
  async function flagQuestion(user: TokenUser, attemptId: number, body: FlagBody): Promise<Flag> {
    return refusedAfterCommit(
      database.transaction(async (trx): Promise<Flag | AppError> => {
        const attempt = await findAttemptForFlag(trx, user.id, attemptId)
        if (!attempt) return new NotFound('Result not found.')
        const revisionIds = attemptColumns.revisionIds(attempt)
        const revisions = await findRevisionOfQuestion(trx, revisionIds, body.question_id)
        if (!revisions)
          return new ValidationFailed(
            { question_id: [challengeMessages.questionNotInAttempt] },
            challengeMessages.questionNotInAttempt,
          )
        if (body.proposed_option_id !== null) {
          const options = await findRevisionOptionIds(trx, revisions.id)
          if (!options.some((option) => option.id === body.proposed_option_id))
            return new ValidationFailed(
              { proposed_option_id: [challengeMessages.optionNotOfQuestion] },
              challengeMessages.optionNotOfQuestion,
            )
        }
        if (body.proposed_option_ids !== null && revisions.type !== 'multiple')
          return new ValidationFailed({ proposed_option_ids: [challengeMessages.proposalNotOfType] })
        if (body.proposed_value !== null && revisions.type !== 'numeric')
          return new ValidationFailed({ proposed_value: [challengeMessages.proposalNotOfType] })
        const foreign =
          (body.proposed_option_ids ?? []).length > 0 ? await foreignProposal(trx, revisions.id, body) : null
        if (foreign !== null)
          return new ValidationFailed(
            { [`proposed_option_ids.${foreign}`]: [challengeMessages.optionNotOfQuestion] },
            challengeMessages.optionNotOfQuestion,
          )
        let proposedValue: string | null = null
        if (body.proposed_value !== null) {
          // Read as the exam reads an answer, so the queue counts "2.50" and "2.5" as one proposal.
          const read = readNumber(body.proposed_value, revisions.decimals)
          if (!read.ok)
            return new ValidationFailed(
              { proposed_value: [numberRefusals[read.reason]] },
              'A typed number is not one the question accepts.',
              'invalid_number',
            )
          proposedValue = read.text
        }
        if (attempt.status !== 'finished') return new Conflict(challengeMessages.attemptInProgress)
        const now = clock.now()
        // A challenge names a key the learner has been shown: none while it is withheld (a flag sent during a live
        // mock could have it decided, and regraded, before everyone has finished).
        const quiz = { ...attempt, id: attempt.quiz_id, status: attempt.quiz_status }
        if (await withholding.attemptKeyWithheld(trx, attempt, quiz, now))
          return new Conflict(challengeMessages.challengeNotOpen, 'challenge_not_open')
        if (now > challengeClosesAt(attempt)) return new Conflict(challengeMessages.challengeClosed, 'challenge_closed')
        const flag = await upsertFlag(trx, {
          attempt_id: attempt.id,
          user_id: user.id,
          question_id: body.question_id,
          revision_id: revisions.id,
          reason: body.reason,
          proposed_option_id: body.proposed_option_id,
          proposed_option_ids:
            body.proposed_option_ids === null
              ? null
              : JSON.stringify([...new Set(body.proposed_option_ids)].sort((a, b) => a - b)),
          proposed_value: proposedValue,
          note: body.note,
          created_at: now,
        })
        return toFlagDto(flag)
      }),
    )
  }

  /** The place in `proposed_option_ids` of the first id that is not an option of the revision, or null. */
  async function foreignProposal(trx: Kysely<DB>, revisionId: number, body: FlagBody) {
    const options = new Set((await findRevisionOptionIds(trx, revisionId)).map((option) => option.id))
    const place = (body.proposed_option_ids ?? []).findIndex((id) => !options.has(id))
    return place < 0 ? null : place
  }

  return { flagQuestion }
}

export type FlagsService = ReturnType<typeof createFlagsService>
