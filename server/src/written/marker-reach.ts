import { markingMessages } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { createKeyWithholding } from '../attempts/withheld-keys.service'
import type { LiveColumns } from '../attempts/live-window.service'
import type { DB } from '../db/schema'
import { Conflict } from '../http/errors'
import { acceptedRequestOf } from './regrades.service'

// Which written answers a marker reaches, and when marks may go out (docs/decisions/090, issue 72).

export interface MarkingUser {
  id: number
  isAdmin: boolean
}

/** What deciding reach needs of an answer (marking.repository.ts `findAnswerForMarking`). */
export interface ReachableAnswer {
  id: number
  quiz_id: number
  question_id: number
  user_id: number
  status: string
  claimed_by: number | null
  marked_by: number | null
}

/**
 * Nobody reaches their own answer (an admin who sat the quiz included). An admin reaches every other; a marker only
 * those handed to them (claimed by them, live or lapsed, until another marker takes it over) or marked by them, and a
 * released one with an accepted regrade request when they marked that question in that quiz (API.md). Anything else
 * reads as unknown, so ids cannot be enumerated.
 */
export async function reaches(trx: Kysely<DB>, answer: ReachableAnswer, user: MarkingUser, lock = false) {
  if (answer.user_id === user.id) return false
  if (user.isAdmin) return true
  if (answer.claimed_by === user.id || answer.marked_by === user.id) return true
  return answer.status === 'released' && (await acceptedRequestOf(trx, answer, user, lock)) !== null
}

/**
 * A live mock's written marks wait for its key: a model answer or a mark read by a learner who submitted early could be
 * passed to one still sitting. Release is refused (409 `key_withheld`) until the key is out, as the choice key waits.
 */
export function createLiveReleaseGate({ graceMs }: { graceMs: number }) {
  const withholding = createKeyWithholding({ graceMs })
  return async function refuseWhileKeyWithheld(
    db: Kysely<DB>,
    quiz: LiveColumns & { id: number; end_time: number | null },
    now: number,
  ) {
    const until = await withholding.keyWithheldUntil(db, quiz, now)
    if (until !== null) throw new Conflict(markingMessages.keyWithheld(new Date(until).toISOString()), 'key_withheld')
  }
}
