import type { Difficulty, LiveInfo, QuizListItem } from '@quiz/contracts'
import type { AttemptLifecycle, CurrentQuestions, SectionSummary } from '../attempts/attempts.service'
import { mayTakePaidQuizzes } from '../accounts/paid-access'
import type { AppContext } from '../context'
import type { TokenUser } from '../http/tokens'
import { toIso, toIsoOrNull } from '../lib/clock'
import { isQuizActive } from '../attempts/attempts.service'
import { livePhase, liveTimes } from '../attempts/live-window.service'
import { createKeyWithholding } from '../attempts/withheld-keys.service'
import type { LiveService } from '../live/live.service'
import { listActiveQuizzesForLearner } from './quizzes.repository'

export function createQuizService({
  database,
  clock,
  lifecycle,
  currentQuestions,
  live,
}: Pick<AppContext, 'database' | 'clock'> & {
  lifecycle: AttemptLifecycle
  currentQuestions: CurrentQuestions
  live: Pick<LiveService, 'statusOf'>
}) {
  const { db } = database
  const withholding = createKeyWithholding({ graceMs: lifecycle.graceMs })

  async function listQuizzes(user: TokenUser): Promise<QuizListItem[]> {
    const now = clock.now()
    const rows = await listActiveQuizzesForLearner(db, user.id, now)
    const isLive = (deadline: number | null) =>
      deadline !== null && lifecycle.isLive({ status: 'in_progress', deadline }, now)
    if (rows.some((row) => row.in_progress_deadline !== null && !isLive(row.in_progress_deadline))) {
      await lifecycle.settleExpired(user.id)
    }
    const sections: SectionSummary[][] = []
    for (const row of rows) {
      sections.push(
        currentQuestions.summaryAt(row.id, row.question_set_version) ??
          (await currentQuestions.loadSummary(db, row.id)),
      )
    }
    const liveInfo: (LiveInfo | null)[] = []
    // Practice waits until the key is out (issue 54): no query before the common end plus grace.
    const practiceShut: boolean[] = []
    for (const row of rows) {
      const times = liveTimes(row)
      practiceShut.push(
        times !== null && livePhase(times, now) === 'after' && (await withholding.isLiveKeyWithheld(db, row, now)),
      )
      liveInfo.push(
        times && {
          starts_at: toIso(times.startsAt),
          join_minutes: row.live_join_minutes!,
          join_ends_at: toIso(times.joinEndsAt),
          ends_at: toIso(times.endsAt),
          status: await live.statusOf(row, times, now),
        },
      )
    }
    return rows.map((row, index) => {
      const hasAttemptInProgress = isLive(row.in_progress_deadline)
      const mayTake = row.is_paid_tier === 0 || mayTakePaidQuizzes(row, now)
      const remainingAttempts = Math.max(0, row.allowed_attempts - row.attempt_count)
      const times = liveTimes(row)
      const phase = times && livePhase(times, now)
      const mayStartNew =
        remainingAttempts > 0 &&
        isQuizActive(row, now) &&
        (phase === null ||
          (phase === 'after' && !practiceShut[index]) ||
          (phase === 'joining' && row.has_ranked_attempt === null))
      // The summary's fields written out (see toQuizSummary), not spread: this runs for every quiz of every list.
      return {
        id: row.id,
        title: { en: row.title_en, ne: row.title_ne },
        duration_minutes: row.duration_minutes,
        difficulty: row.difficulty as Difficulty,
        is_paid_tier: row.is_paid_tier === 1,
        allowed_attempts: row.allowed_attempts,
        remaining_attempts: remainingAttempts,
        has_attempt_in_progress: hasAttemptInProgress,
        can_start: mayTake && (hasAttemptInProgress || mayStartNew),
        start_time: toIso(row.start_time),
        end_time: toIsoOrNull(row.end_time),
        question_count: row.question_count,
        sections: sections[index]!,
        live: liveInfo[index]!,
        registered: row.registered !== null,
      }
    })
  }

  return { listQuizzes }
}

export type QuizService = ReturnType<typeof createQuizService>
