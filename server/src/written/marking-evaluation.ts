import { fromHundredths, markingMessages, writtenMessages, type Evaluation } from '@quiz/contracts'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { Conflict, ValidationFailed, type FieldErrors } from '../http/errors'
import { evaluateAnswer } from './marking'
import { notFound } from './marking-quiz'
import { reaches } from './marker-reach'
import { anonymousCode, findAnswerForMarking, listPages, storeAnnotations } from './marking.repository'
import { acceptedRequestOf, settleByMarking } from './regrades.service'
import { revisionOf } from './rubric'
import { findRubric } from './rubric.repository'

export function createMarkingEvaluation({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const postgres = database.dialect === 'postgres'

  /**
   * Another marker's live claim and a released answer -> 409; a stale rubric -> 409 `rubric_changed`. A released
   * answer with an accepted regrade request is marked again by an admin or a marker of its question: its new marks go
   * into its attempt's score at once (docs/decisions/071).
   */
  async function evaluate(answerId: number, input: Evaluation, actor: UserActor, isAdmin = false) {
    return database.transaction(async (trx) => {
      const now = clock.now()
      const answer = await findAnswerForMarking(trx, answerId, { lock: postgres })
      // An attempt still running is the learner's to write: not markable, and not shown to markers.
      if (!answer || answer.attempt_status !== 'finished') throw notFound()
      if (!(await reaches(trx, answer, { id: actor.id, isAdmin }, postgres))) throw notFound()
      const regrade =
        answer.status === 'released' ? await acceptedRequestOf(trx, answer, { id: actor.id, isAdmin }, postgres) : null
      if (answer.status === 'released' && !regrade) throw new Conflict(markingMessages.released, 'answer_released')
      if (answer.claimed_by !== null && answer.claimed_by !== actor.id && (answer.claimed_until ?? 0) > now)
        throw new Conflict(markingMessages.claimedByOther, 'claimed_by_other')
      if (input.rubric_revision !== revisionOf(await findRubric(trx, answer.question_id)))
        throw new Conflict(writtenMessages.rubricChanged, 'rubric_changed')
      const pages = new Set((await listPages(trx, answerId)).map((page) => page.id))
      const annotations = input.annotations ?? []
      const errors: FieldErrors = {}
      const seen = new Set<number>()
      annotations.forEach((annotation, index) => {
        if (!pages.has(annotation.page_id)) errors[`annotations.${index}.page_id`] = [markingMessages.unknownPage]
        else if (seen.has(annotation.page_id)) errors[`annotations.${index}.page_id`] = [markingMessages.repeatedPage]
        seen.add(annotation.page_id)
      })
      if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
      const before = answer.status === 'submitted' ? null : fromHundredths(answer.score_hundredths ?? 0)
      const score = await evaluateAnswer(
        trx,
        answerId,
        {
          items: input.items ?? [],
          adjustment: Math.round((input.adjustment ?? 0) * 100),
          comment: input.comment ?? null,
        },
        actor.id,
        now,
        { released: regrade !== null },
      )
      if (regrade)
        await settleByMarking(
          trx,
          {
            requestId: regrade.id,
            answerId,
            oldMarks: answer.score_hundredths ?? 0,
            newMarks: score,
            settledBy: actor.id,
          },
          now,
        )
      await storeAnnotations(
        trx,
        answerId,
        annotations.map((annotation) => ({ id: annotation.page_id, doc: JSON.stringify(annotation.doc) })),
      )
      await recordAudit(trx, actor, now, {
        action: 'mark',
        entityType: 'written_answer',
        entityId: answerId,
        label: anonymousCode(answer.id),
        before: before === null ? null : { score: before },
        after: {
          score: fromHundredths(score),
          items: [...new Set(input.items ?? [])],
          rubric_revision: input.rubric_revision,
          ...(regrade && { regrade_id: regrade.id }),
        },
      })
      return { score: fromHundredths(score) }
    })
  }

  return { evaluate }
}
