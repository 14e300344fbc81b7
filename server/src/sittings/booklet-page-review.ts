import {
  bookletMessages,
  sittingMessages,
  type BookletPage,
  type PageFlag,
  type PageStatus,
  type PageUpdate,
} from '@quiz/contracts'
import { changedFields, recordAudit, type UserActor } from '../audit/audit-log'
import { NotFound, ValidationFailed } from '../http/errors'
import { writtenOf, type BookletJoin, type SittingWritten } from './booklet-join'
import { findBookletPage, updateBookletPage, type BookletPageRow } from './booklet-pages.repository'
import { findRosterEntry, findRosterPlaceOf } from './sittings.repository'
import { findSittingView, type SittingsDeps } from './sitting-view'

export const numbersOfLearner = (written: SittingWritten, set: string | undefined) =>
  new Set(set ? [...(written.bySet.get(set as never)?.keys() ?? [])] : written.union)

export function auditValues(page: BookletPageRow) {
  return {
    status: page.status,
    roll_number: page.roll_number,
    user_id: page.user_id,
    questions: JSON.parse(page.questions) as number[],
    flags: JSON.parse(page.flags) as PageFlag[],
  }
}

export function createPageReview({
  database,
  clock,
  papers,
  paperAttempts,
  joinBookletPages,
  getPage,
}: SittingsDeps & { joinBookletPages: BookletJoin; getPage: (pageId: number) => Promise<BookletPage> }) {
  const lock = database.dialect === 'postgres'

  /** What settles which flag: `roll_number` the learner (roll), `questions` the questions (and a duplicate), `discard`. */
  async function reviewPage(pageId: number, body: PageUpdate, actor: UserActor): Promise<BookletPage> {
    const now = clock.now()
    await paperAttempts.transaction(async (trx) => {
      const found = await findBookletPage(trx, pageId)
      if (!found) throw new NotFound(bookletMessages.pageNotFound)
      const sitting = await findSittingView(trx, found.sitting_id, { lock })
      const page = (await findBookletPage(trx, pageId, { lock }))!
      const written = await writtenOf(trx, papers, sitting)
      let flags = JSON.parse(page.flags) as PageFlag[]
      let questions = JSON.parse(page.questions) as number[]
      let userId = page.user_id
      let rollNumber = page.roll_number
      let status: PageStatus = page.status
      if (body.roll_number !== undefined) {
        const entry = await findRosterEntry(trx, sitting.id, body.roll_number)
        if (!entry) throw new ValidationFailed({ roll_number: [sittingMessages.rollNotOnRoster(body.roll_number)] })
        userId = entry.user_id
        rollNumber = body.roll_number
        flags = flags.filter((flag) => flag.kind !== 'roll')
      }
      if (body.questions !== undefined) {
        if (userId === null) throw new ValidationFailed({ questions: [bookletMessages.noLearner] })
        const place = await findRosterPlaceOf(trx, sitting.id, userId)
        const printed = numbersOfLearner(written, place?.set_letter)
        const wrong = body.questions.find((number) => !printed.has(number))
        if (wrong !== undefined) throw new ValidationFailed({ questions: [bookletMessages.notAWrittenQuestion(wrong)] })
        if (body.questions.length === 0) throw new ValidationFailed({ questions: [bookletMessages.noQuestions] })
        questions = [...new Set(body.questions)].sort((a, b) => a - b)
        flags = flags.filter(
          (flag) => !['question_unclear', 'no_question', 'duplicate_page', 'spare_page'].includes(flag.kind),
        )
      }
      if (body.discard === true) status = 'discarded'
      else if (body.discard === false || status !== 'discarded')
        status = flags.length === 0 && userId !== null ? 'recorded' : 'needs_review'
      await updateBookletPage(trx, pageId, {
        status,
        user_id: userId,
        roll_number: rollNumber,
        questions: JSON.stringify(questions),
        flags: JSON.stringify(flags),
        updated_at: now,
      })
      for (const learner of new Set([page.user_id, userId]))
        if (learner !== null) await joinBookletPages(trx, sitting, learner, now)
      await recordAudit(trx, actor, now, {
        action: 'update',
        entityType: 'scan',
        entityId: pageId,
        label: `${sitting.title_en}: booklet page ${page.sheet}`,
        ...changedFields(auditValues(page), { status, roll_number: rollNumber, user_id: userId, questions, flags }),
      })
    })
    return getPage(pageId)
  }

  return reviewPage
}
