import { type SittingSet } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { attemptSections } from '../questions/sections'
import { notify, relink } from '../notifications/notifications.service'
import { createBookletJoin } from './booklet-join'
import { paperResultLink, paperResultNotification } from './paper-result-notification'
import type { AnswerValue } from '../questions/scoring'
import { choiceNumbers, isMultipleRow, letterIndex, letterIndexes } from './sitting-sets'
import { deadlineOf, planOf, type SittingsDeps, type SittingView } from './sitting-view'

import type { Answers } from './scan-rows'

export function createAttemptRecorder({ config, papers, paperAttempts }: SittingsDeps) {
  const joinBookletPages = createBookletJoin({ papers, paperAttempts, config })

  /** The learner is told in the same transaction, once per result; a retake keeps the attempt's number. */
  async function recordAttempt(
    trx: Kysely<DB>,
    sitting: SittingView,
    scan: { userId: number; set: SittingSet; answers: Answers },
    withdrawn: AttemptRow | undefined,
    now: number,
  ) {
    const again = withdrawn?.user_id === scan.userId ? withdrawn : undefined
    const plan = planOf(sitting, scan.set)
    const revisionIds = JSON.parse(sitting.revision_ids) as number[]
    const paper = await papers.paperFor(trx, sitting.revision_ids)
    const answers = new Map<number, AnswerValue>()
    // The sheet's rows are the set's choice questions by their printed numbers; written ones come from booklet pages.
    for (const number of choiceNumbers(plan)) {
      const letter = scan.answers[String(number)] ?? null
      const options = plan.options[number - 1]!
      // A multiple row's letters are its option ids; the section's multiple marking scores them (outcomes/markers).
      const answer: AnswerValue =
        letter === null
          ? null
          : isMultipleRow(plan, number)
            ? letterIndexes(sitting.labels, letter).map((index) => options[index]!)
            : options[letterIndex(sitting.labels, letter)]!
      answers.set(paper.questions[plan.order[number - 1]!]!.questionId, answer)
    }
    // A numeric question's grid gives the typed number, scored as an online one is (decision 129).
    for (const { number } of plan.numeric ?? [])
      answers.set(paper.questions[plan.order[number - 1]!]!.questionId, scan.answers[String(number)] ?? null)
    const sections = sitting.sections ?? JSON.stringify(attemptSections(null, plan.order.length))
    const finished = await paperAttempts.record(trx, {
      userId: scan.userId,
      quizId: sitting.quiz_id,
      sittingId: sitting.id,
      isLiveQuiz: sitting.live_starts_at !== null,
      heldAt: sitting.held_at,
      deadline: deadlineOf(sitting),
      revisionIds: plan.order.map((paperIndex) => revisionIds[paperIndex]!),
      optionOrder: plan.options,
      sections,
      answers,
      number: again?.attempt_number,
      now,
    })
    const { attempt } = finished
    // The learner's booklet pages recorded so far join the attempt's written answers (docs/decisions/075).
    await joinBookletPages(trx, sitting, scan.userId, now)
    if (again) await relink(trx, scan.userId, paperResultLink(again.id), paperResultLink(attempt.id))
    if (again?.score_hundredths !== attempt.score_hundredths)
      await notify(trx, [paperResultNotification(sitting, attempt, attemptSections(sections, 0))], now)
    return attempt
  }

  return recordAttempt
}

export type AttemptRecorder = ReturnType<typeof createAttemptRecorder>
