import type { SaveAnswersBody, SaveAnswersResult } from '@quiz/contracts'
import { LRUCache } from 'lru-cache'
import type { AppContext } from '../context'
import { currentInstitute } from '../db/request-scope'
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

  // The attempt each learner last saved to, by institute, learner and quiz: an autosave then costs its write alone.
  // Safe without asking anyone: the write itself is refused unless the attempt is still in progress (a submit in any
  // process), and only attempts whose deadline and sections cannot move are remembered (a timed section's move sets a
  // new deadline). A refused write forgets it and the save is taken from the start. Bounded by count through maxSize
  // (decision 135).
  const remembered = new LRUCache<string, AttemptInProgress>({ maxSize: 10_000, sizeCalculation: () => 1 })

  async function saveAnswers(user: TokenUser, quizId: number, body: SaveAnswersBody): Promise<SaveAnswersResult> {
    const now = clock.now()
    const key = `${currentInstitute() ?? 0}:${user.id}:${quizId}`
    const known = remembered.get(key)
    if (known && now <= known.deadline && hasWrites(body)) {
      const saved = await saveTo(known, body, now)
      if (saved) return saved
      remembered.delete(key)
    }
    const live = await attemptInProgress(user, quizId, now)
    if (!live) {
      const latest = await findLatestAttempt(db, user.id, quizId)
      if (!latest) throw noAttemptInProgress()
      throw latest.submitted === 1 ? alreadySubmitted() : timeIsUp()
    }
    if (now > live.deadline) throw timeIsUp()
    const saved = await saveTo(live, body, now)
    if (!saved) throw alreadySubmitted()
    if (!sectionClock(live, now).timed) remembered.set(key, { ...live, option_order: null })
    return saved
  }

  /** The save, or undefined when the attempt is no longer in progress. */
  async function saveTo(live: AttemptInProgress, body: SaveAnswersBody, now: number) {
    const paper = await papers.paperFor(db, live.revision_ids, undefined, live.passages_version)
    const invalid = invalidExamState(paper, body)
    if (invalid) throw invalid
    const sections = sectionClock(live, now)
    const { body: open, dropped } = withoutClosedSections(sections, placesOf(paper), body)
    const result = await saveOpen(live, open, now)
    if (!result) return undefined
    return sections.timed ? { ...result, dropped } : result
  }

  async function saveOpen(
    live: AttemptInProgress,
    body: SaveAnswersBody,
    now: number,
  ): Promise<{ saved: number } | undefined> {
    const entries = answerEntries(body.answers ?? {})
    const withState = hasExamState(body)
    if (entries.length === 0 && !withState) return { saved: 0 }
    // Answers of every type take the one-statement paths (each writes `value` when an entry carries one).
    if (isPostgres && !withState) {
      if (!(await upsertAnswersIfInProgressOnPostgres(db, live.id, entries, now))) return undefined
      return { saved: entries.length }
    }
    if (!isPostgres && !withState && entries.length === 1) {
      // The usual autosave: one statement, committed with other writes (group commit).
      const [[questionId, optionId, value]] = entries as [(typeof entries)[number]]
      const saved = await database.transaction((trx) =>
        upsertAnswerIfInProgress(trx, live.id, questionId, optionId, now, value),
      )
      return saved ? { saved: 1 } : undefined
    }
    return saveInTransaction(live, body, entries, withState, now)
  }

  async function saveInTransaction(
    live: AttemptInProgress,
    body: SaveAnswersBody,
    entries: readonly AnswerEntry[],
    withState: boolean,
    now: number,
  ): Promise<{ saved: number } | undefined> {
    return database.transaction(async (trx) => {
      // A submit may have finished it meanwhile; the seconds' lock queues the attempt's other reports (the cap).
      const inProgress =
        isPostgres && withState
          ? await isAttemptInProgressLocked(trx, live.id)
          : await isAttemptInProgress(trx, live.id, { share: isPostgres })
      if (!inProgress) return undefined
      await upsertAnswers(trx, live.id, entries, now)
      if (withState) await storeExamState(trx, live, body, now)
      return { saved: entries.length }
    })
  }

  return saveAnswers
}

/** Whether a save writes anything: an empty one asks nothing of the database, so it may not skip the attempt's read. */
const hasWrites = (body: SaveAnswersBody) => Object.keys(body.answers ?? {}).length > 0 || hasExamState(body)
