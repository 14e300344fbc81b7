import type { FetchedQuestion } from '@quiz/contracts'
import { Conflict, NotFound } from '../http/errors'
import type { SerializedOnce } from '../http/serializer'
import type { TokenUser } from '../http/tokens'
import { alreadySubmitted, noAttemptInProgress, questionsClosed, sectionNotOpen, timeIsUp } from './attempt-rules'
import { moveToSection } from './attempts.repository'
import type { AttemptServiceDeps } from './attempts.service'
import { createAttemptInProgress } from './attempt-in-progress'
import { createQuestionBodies } from './question-bodies'
import { createSaveAnswers } from './save-answers'
import { isOpen, sectionAt, sectionClock, toAttemptSections } from './section-clock'
import type { SavedWrittenAnswers } from './quiz-attempt'
import { createStartAttempt } from './start-attempt'

export function createAttemptSessionService(context: AttemptServiceDeps & { savedWritten: SavedWrittenAnswers }) {
  const { database, clock, papers, lifecycle } = context
  const { db } = database
  const attemptInProgress = createAttemptInProgress({ db, lifecycle })

  const bodyOf = createQuestionBodies()

  async function getQuestion(
    user: TokenUser,
    quizId: number,
    number: number,
    passagesHeld?: ReadonlySet<number>,
  ): Promise<SerializedOnce<FetchedQuestion>> {
    const now = clock.now()
    const live = await attemptInProgress(user, quizId, now)
    if (!live) throw noAttemptInProgress()
    // The grace is for a submit on its way, not for reading on (docs/decisions/023).
    if (now > live.deadline) throw questionsClosed()
    const question = (await papers.paperFor(db, live.revision_ids, live.option_order, live.passages_version)).questions[
      number - 1
    ]
    if (!question) throw new NotFound('Question not found.')
    const sections = sectionClock(live, now)
    if (!isOpen(sections, number - 1)) throw sectionNotOpen(sectionAt(sections, number - 1) < sections.current)
    return bodyOf(question, number, passagesHeld?.has(question.learner.passage?.id ?? 0) ?? false)
  }

  async function nextSection(user: TokenUser, quizId: number) {
    const now = clock.now()
    const live = await attemptInProgress(user, quizId, now)
    if (!live) throw noAttemptInProgress()
    if (now > live.deadline) throw timeIsUp()
    const sections = sectionClock(live, now)
    if (!sections.timed) throw new Conflict('This paper has no timed sections.')
    if (sections.current >= sections.sections.length - 1)
      throw new Conflict('This is the last section: submit the attempt to finish it.')
    const next = sections.current + 1
    const later = sections.sections.slice(next).reduce((sum, section) => sum + (section.limit_ms ?? 0), 0)
    const deadline = Math.min(now + later, live.deadline)
    const moved = await database.transaction((trx) =>
      moveToSection(trx, live.id, sections.current, next, now, deadline),
    )
    if (!moved) throw alreadySubmitted()
    const updated = { ...live, current_section: next, section_opened_at: now, deadline }
    return { sections: toAttemptSections(sectionClock(updated, now)) }
  }

  return {
    startAttempt: createStartAttempt(context),
    getQuestion,
    saveAnswers: createSaveAnswers({ ...context, isPostgres: lifecycle.isPostgres, attemptInProgress }),
    nextSection,
  }
}

export type AttemptSessionService = ReturnType<typeof createAttemptSessionService>
