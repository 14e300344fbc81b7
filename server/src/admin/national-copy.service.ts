import type { SectionInput } from '@quiz/contracts'
import type { AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { recordPictureUses } from '../pictures/pictures.repository'
import { insertBankQuestion } from '../questions/question-revisions.repository'
import { setCopiedFrom } from './bank.repository'
import { findPlatformSource, pictureHashesOf, platformRevisions } from './platform-source'
import { addQuizFromJson } from './quiz-from-json'
import {
  findCopyQuestion,
  findCopyQuiz,
  findQuizOfMock,
  markQuestionForMock,
  markQuizForMock,
  softDeleteCopy,
} from './national-copy.repository'

// docs/decisions/102: an institute taking part in a national mock holds a live quiz of its own, whose questions are
// copies of the platform's, so that every live-mock path runs on the institute's rows unchanged.

export interface NationalPaper {
  mockId: number
  title: { en: string; ne: string }
  durationMinutes: number
  live: { starts_at: string; join_minutes: number }
  sections: SectionInput[]
}

/** Which of these platform bank questions exist (read in the platform's bank's scope). */
export async function existingPlatformQuestions(
  { database }: Pick<AppContext, 'database'>,
  ids: readonly number[],
): Promise<Set<number>> {
  return new Set((await platformRevisions(database.db, [...new Set(ids)])).keys())
}

/**
 * Writes the institute's copy in the request's own institute: the questions, marked as the mock's so that no bank
 * list, facet or admin read shows them before the common end, then the live quiz naming them. No audit line names a
 * question: the institute's trail would show its text. Returns the quiz's id.
 */
export async function createNationalCopy(
  context: Pick<AppContext, 'database' | 'clock'>,
  paper: NationalPaper,
  actor: AuditActor,
): Promise<number> {
  const { database, clock } = context
  const ids = [
    ...new Set(
      paper.sections.flatMap((section) =>
        section.items.flatMap((item) => ('question_id' in item ? [item.question_id] : [])),
      ),
    ),
  ]
  const sources = await Promise.all(ids.map((id) => findPlatformSource(database.db, id)))
  const copyOf = new Map<number, number>()
  await database.transaction(async (trx) => {
    const now = clock.now()
    for (const source of sources) {
      if (!source) continue
      await recordPictureUses(trx, pictureHashesOf(source.content))
      const questionId = await insertBankQuestion(trx, source.content, now, source)
      await setCopiedFrom(trx, questionId, { questionId: source.questionId, revision: source.revision })
      await markQuestionForMock(trx, questionId, paper.mockId)
      copyOf.set(source.questionId, questionId)
    }
  })
  const sections = paper.sections.map((section) => ({
    ...section,
    items: section.items.map((item) =>
      'question_id' in item ? { ...item, question_id: copyOf.get(item.question_id) ?? item.question_id } : item,
    ),
  }))
  const { quiz_id } = await addQuizFromJson(
    context,
    {
      title: paper.title,
      duration_minutes: paper.durationMinutes,
      allowed_attempts: 1,
      difficulty: 'medium',
      is_paid_tier: false,
      shuffle_questions: false,
      shuffle_options: false,
      draw_mode: 'frozen',
      challenge_days: 0,
      upload_grace_minutes: 0,
      live: paper.live,
      status: 'published',
      sections,
    } as never,
    actor,
  )
  await markQuizForMock(database.db, quiz_id, paper.mockId)
  return quiz_id
}

/** Deletes an institute's copy (leaving before the start): the quiz and its questions, soft as the admin deletes. */
export async function removeNationalCopy({ database, clock }: Pick<AppContext, 'database' | 'clock'>, quizId: number) {
  const now = clock.now()
  await database.transaction((trx) => softDeleteCopy(trx, quizId, now))
}

/** The national mock a quiz of the request's institute copies, with its common end; undefined for other quizzes. */
export async function nationalCopyOf({ database }: Pick<AppContext, 'database'>, quizId: number) {
  const row = await findCopyQuiz(database.db, quizId)
  return row && { mockId: row.national_mock_id!, endsAt: row.live_starts_at! + row.duration_minutes * 60_000 }
}

/** The national mock a question of the request's institute was copied for, with the mock's common end. */
export async function nationalQuestionCopyOf({ database }: Pick<AppContext, 'database'>, questionId: number) {
  const question = await findCopyQuestion(database.db, questionId)
  if (!question) return undefined
  const quiz = await findQuizOfMock(database.db, question.national_mock_id!)
  // A copy whose quiz is gone (left before the start) stays hidden: its end never came for this institute.
  const endsAt = quiz ? quiz.live_starts_at! + quiz.duration_minutes * 60_000 : Number.POSITIVE_INFINITY
  return { mockId: question.national_mock_id!, endsAt }
}
