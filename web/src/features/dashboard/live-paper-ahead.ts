import type { LiveInfo } from '@quiz/contracts'
import { LIVE_PAPER_AHEAD_MS } from '@quiz/contracts/rules/live'
import { useQuery } from '@tanstack/react-query'
import { keepLivePaper } from '../../api/live-paper'
import { useSessionUser } from '../../session/use-session'

/**
 * A registered learner's app fetches the mock's encrypted paper once it is offered (24 hours before the start) until
 * the mock ends, and keeps it for the exam (docs/decisions/069). True once it is on the device.
 */
export function useLivePaperAhead(quiz: { id: number; registered: boolean; live: LiveInfo }, now: number) {
  const userId = useSessionUser()?.userId ?? 0
  const offered =
    quiz.registered &&
    userId !== 0 &&
    now >= Date.parse(quiz.live.starts_at) - LIVE_PAPER_AHEAD_MS &&
    now < Date.parse(quiz.live.ends_at)
  const kept = useQuery({
    queryKey: ['live-paper', userId, quiz.id],
    queryFn: async () => {
      await keepLivePaper(userId, quiz.id)
      return true
    },
    enabled: offered,
    staleTime: Infinity,
  })
  return offered && kept.data === true
}
