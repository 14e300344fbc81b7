import type { ReportCard } from './results.api'

/** Whether the learner may still challenge this attempt's key (the server refuses after it with 409 all the same). */
export function challengeWindowOpen(card: Pick<ReportCard, 'challenge_closes_at'>, now = Date.now()): boolean {
  return Date.parse(card.challenge_closes_at) > now
}
