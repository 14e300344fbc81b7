import {
  bankMessages,
  liveMessages,
  type AnyQuestionInput,
  type CreateQuizFromJsonSchema,
  type SectionInput,
} from '@quiz/contracts'
import type { z } from 'zod'
import { recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { ValidationFailed } from '../http/errors'
import { liveScheduleError } from '../live/live.service'
import { followScheduleIfPublished, newQuizBasics, quizValues } from './admin-quiz'
import { findLiveQuiz, insertQuestionsInBulk, insertQuiz, updateQuiz } from './admin.repository'
import { checkPaper, writePaper } from './paper'
import { insertPassage, setPassageQuestions } from '../questions/passages.repository'
import { passageValues } from '../questions/paper-passages'

type SectionItem = NonNullable<CreateQuizFromJsonInput['sections']>[number]['items'][number]

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
      const isQuestion = (item: SectionItem): item is AnyQuestionInput =>
        !('question_id' in item || 'draw' in item || 'passage_id' in item || 'passage' in item)
      const inline = input.sections.flatMap((section) =>
        section.items.flatMap((item) => (isQuestion(item) ? [item] : 'passage' in item ? item.items : [])),
      )
      const newIds = await insertQuestionsInBulk(trx, null, inline, now)
      let next = 0
      const sections: SectionInput[] = []
      for (const section of input.sections) {
        const items: SectionInput['items'] = []
        for (const item of section.items) {
          if (isQuestion(item)) items.push({ question_id: newIds[next++]! })
          else if ('passage' in item) {
            // A new passage of the bank, its new questions in the order written (docs/decisions/117).
            const questionIds = item.items.map(() => newIds[next++]!)
            const passageId = await insertPassage(trx, passageValues(item.passage), now)
            await setPassageQuestions(trx, passageId, questionIds)
            items.push({ passage_id: passageId })
          } else items.push(item)
        }
        sections.push({ ...section, items })
      }
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
