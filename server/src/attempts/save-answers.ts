import type { SaveAnswersBody, SaveAnswersResult } from '@quiz/contracts'
import type { AppContext } from '../context'
import type { TokenUser } from '../http/tokens'
import type { QuestionPapers } from '../questions/question-papers'
import { alreadySubmitted, noAttemptInProgress, timeIsUp } from './attempt-rules'
import {
  findLatestAttempt,
  isAttemptInProgress,
  isAttemptInProgressLocked,
  upsertAnswerIfInProgress,
  upsertAnswers,
  upsertAnswersIfInProgressOnPostgres,
  type AnswerEntry,
} from './attempts.repository'
import type { AttemptInProgress, createAttemptInProgress } from './attempt-in-progress'
import { answerEntries, hasExamState, invalidExamState, storeExamState } from './exam-state'
import { placesOf, sectionClock, withoutClosedSections } from './section-clock'

/** Refused after the deadline: no grace for saves. */
export function createSaveAnswers({
  database,
  clock,
  papers,
  isPostgres,
  attemptInProgress,
}: Pick<AppContext, 'database' | 'clock'> & {
  papers: QuestionPapers
  isPostgres: boolean
  attemptInProgress: ReturnType<typeof createAttemptInProgress>
}) {
  const { db } = database

  async function saveAnswers(user: TokenUser, quizId: number, body: SaveAnswersBody): Promise<SaveAnswersResult> {
    const now = clock.now()
    const live = await attemptInProgress(user, quizId, now)
    if (!live) {
      const latest = await findLatestAttempt(db, user.id, quizId)
      if (!latest) throw noAttemptInProgress()
      throw latest.submitted === 1 ? alreadySubmitted() : timeIsUp()
    }
    if (now > live.deadline) throw timeIsUp()
    const paper = await papers.paperFor(db, live.revision_ids, undefined, live.passages_version)
    const invalid = invalidExamState(paper, body)
    if (invalid) throw invalid
    const sections = sectionClock(live, now)
    const { body: open, dropped } = withoutClosedSections(sections, placesOf(paper), body)
    const result = await saveOpen(live, open, now)
    return sections.timed ? { ...result, dropped } : result
  }

  async function saveOpen(live: AttemptInProgress, body: SaveAnswersBody, now: number): Promise<{ saved: number }> {
    const entries = answerEntries(body.answers ?? {})
    const withState = hasExamState(body)
    if (entries.length === 0 && !withState) return { saved: 0 }
    // Answers of every type take the one-statement paths (each writes `value` when an entry carries one).
    if (isPostgres && !withState) {
      if (!(await upsertAnswersIfInProgressOnPostgres(db, live.id, entries, now))) throw alreadySubmitted()
      return { saved: entries.length }
    }
    if (!isPostgres && !withState && entries.length === 1) {
      // The usual autosave: one statement, committed with other writes (group commit).
      const [[questionId, optionId, value]] = entries as [(typeof entries)[number]]
      const saved = await database.transaction((trx) =>
        upsertAnswerIfInProgress(trx, live.id, questionId, optionId, now, value),
      )
      if (!saved) throw alreadySubmitted()
      return { saved: 1 }
    }
    return saveInTransaction(live, body, entries, withState, now)
  }

  async function saveInTransaction(
    live: AttemptInProgress,
    body: SaveAnswersBody,
    entries: readonly AnswerEntry[],
    withState: boolean,
    now: number,
  ): Promise<{ saved: number }> {
    await database.transaction(async (trx) => {
      // A submit may have finished it meanwhile; the seconds' lock queues the attempt's other reports (the cap).
      const inProgress =
        isPostgres && withState
          ? await isAttemptInProgressLocked(trx, live.id)
          : await isAttemptInProgress(trx, live.id, { share: isPostgres })
      if (!inProgress) throw alreadySubmitted()
      await upsertAnswers(trx, live.id, entries, now)
      if (withState) await storeExamState(trx, live, body, now)
    })
    return { saved: entries.length }
  }

  return saveAnswers
}
