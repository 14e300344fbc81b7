import { bankMessages, liveMessages, type CreateQuizFromJsonSchema, type SectionInput } from '@quiz/contracts'
import type { z } from 'zod'
import { recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { ValidationFailed } from '../http/errors'
import { liveScheduleError } from '../live/live.service'
import { followScheduleIfPublished, newQuizBasics, quizValues } from './admin-quiz'
import { findLiveQuiz, insertQuestionsInBulk, insertQuiz, updateQuiz } from './admin.repository'
import { checkPaper, writePaper } from './paper'

type CreateQuizFromJsonInput = z.output<typeof CreateQuizFromJsonSchema>

export async function addQuizFromJson(
  { database, clock }: Pick<AppContext, 'database' | 'clock'>,
  input: CreateQuizFromJsonInput,
  actor: AuditActor,
): Promise<{ quiz_id: number }> {
  const now = clock.now()
  const basics = newQuizBasics(input, now)
  const quizId = await database.transaction(async (trx) => {
    const id = await insertQuiz(trx, {
      ...basics,
      is_paid_tier: input.is_paid_tier ? 1 : 0,
      allowed_attempts: input.allowed_attempts,
      difficulty: input.difficulty,
      shuffle_questions: input.shuffle_questions ? 1 : 0,
      shuffle_options: input.shuffle_options ? 1 : 0,
      challenge_days: input.challenge_days,
      upload_grace_minutes: input.upload_grace_minutes,
      draw_mode: input.live ? 'frozen' : input.draw_mode,
      live_starts_at: input.live ? Date.parse(input.live.starts_at) : null,
      live_join_minutes: input.live ? input.live.join_minutes : null,
      created_at: now,
      deleted_at: null,
      status: input.status,
    })
    if (input.questions) await insertQuestionsInBulk(trx, id, input.questions, now)
    if (input.sections) {
      const inline = input.sections.flatMap((section) =>
        section.items.flatMap((item) => ('question_id' in item || 'draw' in item ? [] : [item])),
      )
      const newIds = await insertQuestionsInBulk(trx, null, inline, now)
      let next = 0
      const sections: SectionInput[] = input.sections.map((section) => ({
        ...section,
        items: section.items.map((item) =>
          'question_id' in item || 'draw' in item ? item : { question_id: newIds[next++]! },
        ),
      }))
      const timed = await checkPaper(trx, sections)
      if (timed !== null) {
        if (input.duration_minutes !== undefined && input.duration_minutes !== timed)
          throw new ValidationFailed({ duration_minutes: [bankMessages.durationFromSections] })
        await updateQuiz(trx, id, { duration_minutes: timed })
      }
      await writePaper(trx, id, sections)
    }
    const quiz = (await findLiveQuiz(trx, id))!
    const liveError = liveScheduleError(quiz)
    if (liveError)
      throw new ValidationFailed({
        [liveError === liveMessages.joinAfterEnd ? 'live.join_minutes' : 'live.starts_at']: [liveError],
      })
    await followScheduleIfPublished(trx, null, quiz, now)
    await recordAudit(trx, actor, now, {
      action: 'create',
      entityType: 'quiz',
      entityId: id,
      label: quiz.title_en,
      after: { ...quizValues(quiz), question_count: quiz.question_count },
    })
    return id
  })
  return { quiz_id: quizId }
}
