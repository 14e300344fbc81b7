import { bankMessages, type AdminQuizWithPaper as AdminQuizDetail, type SectionInput } from '@quiz/contracts'
import { recordAudit, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { Conflict, ValidationFailed } from '../http/errors'
import { liveScheduleError } from '../live/live.service'
import { followScheduleIfPublished, quizDetail, quizRequirer } from './admin-quiz'
import { findLiveQuiz, hasFinishedAttempt, updateQuiz } from './admin.repository'
import { checkPaper, drawFrozenPaper, writePaper } from './paper'

export function createQuizPaperEdits({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const requireLiveQuiz = quizRequirer(database)

  return {
    replaceSections(id: number, sections: SectionInput[], actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        const timed = await checkPaper(trx, sections)
        await writePaper(trx, id, sections)
        if (timed !== null) await updateQuiz(trx, id, { duration_minutes: timed })
        const updated = (await findLiveQuiz(trx, id))!
        const liveError = liveScheduleError(updated)
        if (liveError) throw new ValidationFailed({ sections: [liveError] })
        await followScheduleIfPublished(trx, quiz, updated, clock.now())
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { sections: sections.length, question_count: updated.question_count },
        })
        return quizDetail(trx, updated)
      })
    },

    freeze(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        if (quiz.frozen_draw === null) await drawFrozenPaper(trx, id)
        else if (quiz.draw_mode !== 'frozen') await updateQuiz(trx, id, { draw_mode: 'frozen' })
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { draw_mode: 'frozen', frozen: true },
        })
        return quizDetail(trx, (await findLiveQuiz(trx, id))!)
      })
    },

    redraw(id: number, actor: AuditActor): Promise<AdminQuizDetail> {
      return database.transaction(async (trx) => {
        const quiz = await requireLiveQuiz(trx, id)
        if (await hasFinishedAttempt(trx, id)) throw new Conflict(bankMessages.redrawRefused)
        await drawFrozenPaper(trx, id)
        await recordAudit(trx, actor, clock.now(), {
          action: 'update',
          entityType: 'quiz',
          entityId: id,
          label: quiz.title_en,
          after: { redrawn: true },
        })
        return quizDetail(trx, (await findLiveQuiz(trx, id))!)
      })
    },
  }
}
