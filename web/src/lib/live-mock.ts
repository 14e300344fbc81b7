// Where a live mock stands on the learner's clock (API.md "Live mocks"), and what its Start does then. The list's
// `can_start` is the server's answer at the time it was read; the phase says when that answer is due to change.
import type { LiveInfo, QuizListItem } from '@quiz/contracts'
import { startState } from '@quiz/contracts/rules/start'

/** Before the start; joining; running with joining closed; after the common end. */
export type LivePhase = 'upcoming' | 'open' | 'closed' | 'ended'

export function livePhase(live: Pick<LiveInfo, 'starts_at' | 'join_ends_at' | 'ends_at'>, now: number): LivePhase {
  if (now < Date.parse(live.starts_at)) return 'upcoming'
  if (now < Date.parse(live.join_ends_at)) return 'open'
  if (now < Date.parse(live.ends_at)) return 'closed'
  return 'ended'
}

/**
 * What a live mock's Start shows:
 * - `wait`: not started yet (on this clock or, when the device runs ahead, on the server's);
 * - `start` / `resume`: a ranked attempt in the join window, or the one in progress;
 * - `sat`: the learner's ranked attempt is done and practice opens only after the common end;
 * - `closed`: the join window has passed and the mock is still running;
 * - `practice`: after the common end, an unranked attempt;
 * - `practice_soon`: after the common end, practice waits while a learner with extra time still sits (its key is
 *   withheld until then, API.md "Live mocks");
 * - `no_attempts` / `paid_only`: as for any quiz.
 */
export type LiveStartState =
  'wait' | 'start' | 'resume' | 'sat' | 'closed' | 'practice' | 'practice_soon' | 'no_attempts' | 'paid_only'

type LiveQuiz = Pick<
  QuizListItem,
  'can_start' | 'has_attempt_in_progress' | 'remaining_attempts' | 'allowed_attempts' | 'is_paid_tier' | 'end_time'
>

export function liveStartState(quiz: LiveQuiz, phase: LivePhase, now: number): LiveStartState {
  if (quiz.can_start && quiz.has_attempt_in_progress) return 'resume'
  switch (phase) {
    case 'upcoming':
      return 'wait'
    case 'open': {
      if (quiz.can_start) return 'start'
      const blocked = startState(quiz)
      if (blocked === 'paid_only' || quiz.remaining_attempts === 0) return blocked
      // Attempts left yet no start: either this learner has sat it (one ranked attempt each) or the list was read
      // before the server's clock reached the start.
      return quiz.remaining_attempts < quiz.allowed_attempts ? 'sat' : 'wait'
    }
    case 'closed':
      return 'closed'
    case 'ended': {
      if (quiz.can_start) return 'practice'
      const blocked = startState(quiz)
      // Attempts left in a quiz still open, yet no start: the key is still withheld.
      const open = quiz.end_time === null || now < Date.parse(quiz.end_time)
      return blocked === 'no_attempts' && quiz.remaining_attempts > 0 && open ? 'practice_soon' : blocked
    }
  }
}

/** Registering (for reminders) is possible until the join window closes (API.md: 409 after it). */
export const canRegister = (phase: LivePhase) => phase === 'upcoming' || phase === 'open'
