import { markingMessages } from '@quiz/contracts'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { ValidationFailed } from '../http/errors'
import { notify } from '../notifications/notifications.service'
import { rescore, settle } from '../outcomes/outcomes.service'
import { createLiveReleaseGate } from './marker-reach'
import { quizExists, writtenQuestionsOf } from './marking-quiz'
import {
  answersOfAttempts,
  hasPages,
  listMarkedInQuiz,
  listPendingAttempts,
  releaseBlank,
  writtenRevisions,
} from './marking.repository'
import { writtenResultLink } from './result-link'
import { insertWrittenAnswer, quizTitles, setReleased } from './written-answers.repository'

export function createMarkingRelease({ database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const { db } = database
  const postgres = database.dialect === 'postgres'
  const refuseWhileKeyWithheld = createLiveReleaseGate({ graceMs: config.submitGraceSeconds * 1000 })

  /**
   * Marked answers of the questions (all the quiz's written ones by default) become released; blank answers, and
   * written questions an attempt has no answer for, are released at 0; attempts whose written answers are all
   * released become final through outcomes, and learners are told. A marker releases only the answers they marked; an
   * admin every marked one (docs/decisions/090). A live mock's marks wait for its key: 409 `key_withheld`.
   */
  async function release(
    quizId: number,
    questionIds: readonly number[] | undefined,
    actor: UserActor,
    isAdmin: boolean,
  ) {
    await quizExists(db, quizId)
    return database.transaction(async (trx) => {
      const now = clock.now()
      // Two releases at once on PostgreSQL: the second waits for the first and finds nothing left to add.
      const quiz = await quizExists(trx, quizId, { lock: postgres })
      await refuseWhileKeyWithheld(trx, quiz, now)
      const { numbered } = await writtenQuestionsOf(trx, quizId, now)
      const written = new Set(numbered.map((question) => question.questionId))
      const chosen = questionIds ?? [...written]
      const unknown = chosen.findIndex((id) => !written.has(id))
      if (unknown >= 0) throw new ValidationFailed({ [`question_ids.${unknown}`]: [markingMessages.notInQuiz] })
      const releasing = new Set(chosen)

      // Each attempt told, with the first of its questions released now (in the paper's order): the link opens it.
      const place = new Map(numbered.map(({ questionId }, index) => [questionId, index]))
      const touched = new Map<number, { userId: number; questionId: number }>()
      const touch = (attemptId: number, userId: number, questionId: number) => {
        const known = touched.get(attemptId)
        if (!known || place.get(questionId)! < place.get(known.questionId)!)
          touched.set(attemptId, { userId, questionId })
      }
      let released = 0
      for (const questionId of releasing) {
        const marked = await listMarkedInQuiz(trx, quizId, questionId, isAdmin ? undefined : actor.id)
        await setReleased(
          trx,
          marked.map((answer) => answer.id),
          now,
        )
        await rescore(
          trx,
          marked.map((answer) => ({
            attemptId: answer.attempt_id,
            delta: { score_hundredths: answer.score_hundredths ?? 0 },
          })),
        )
        for (const answer of marked) touch(answer.attempt_id, answer.user_id, questionId)
        released += marked.length
      }

      const pending = await listPendingAttempts(trx, quizId)
      const revisions = await writtenRevisions(
        trx,
        pending.flatMap((attempt) => JSON.parse(attempt.revision_ids) as number[]),
      )
      const writtenRevision = new Map(revisions.map((revision) => [revision.id, revision.question_id]))
      const answers = await answersOfAttempts(
        trx,
        pending.map((attempt) => attempt.id),
      )
      const final: number[] = []
      for (const attempt of pending) {
        const mine = answers.filter((answer) => answer.attempt_id === attempt.id)
        let complete = true
        for (const revisionId of JSON.parse(attempt.revision_ids) as number[]) {
          const questionId = writtenRevision.get(revisionId)
          if (questionId === undefined) continue
          const answer = mine.find((row) => row.question_id === questionId)
          if (answer?.status === 'released') continue
          const blank =
            !answer || (answer.status === 'submitted' && answer.text.trim() === '' && !(await hasPages(trx, answer.id)))
          if (blank && releasing.has(questionId)) {
            const id =
              answer?.id ??
              (await insertWrittenAnswer(
                trx,
                { attempt_id: attempt.id, question_id: questionId, revision_id: revisionId },
                now,
              ))
            await releaseBlank(trx, id, now)
            touch(attempt.id, attempt.user_id, questionId)
          } else complete = false
        }
        if (complete) final.push(attempt.id)
      }
      await settle(trx, quizId, final)

      const title = (await quizTitles(trx, [quizId])).get(quizId) ?? { en: '', ne: '' }
      await notify(
        trx,
        [...touched].map(([attemptId, { userId, questionId }]) => ({
          userId,
          kind: 'written_marked' as const,
          text: {
            en: `Your written answers in “${title.en}” have been marked. See your marks and the marked pages.`,
            ne: `“${title.ne}” का तपाईंका लिखित उत्तर जाँचिए। आफ्ना अङ्क र जाँचिएका पाना हेर्नुहोस्।`,
          },
          link: writtenResultLink(attemptId, questionId),
        })),
        now,
      )
      await recordAudit(trx, actor, now, {
        action: 'release',
        entityType: 'quiz',
        entityId: quizId,
        label: title.en,
        after: { question_ids: [...releasing], released, final: final.length },
      })
      return { released }
    })
  }

  return { release }
}
