import { pageUrlKey, pageUrls } from './answer-pages'
import {
  fromHundredths,
  markingLimits,
  markingMessages,
  writtenMessages,
  type Evaluation,
  type MarkingAnswer,
  type MarkingOverview,
  type MarkingQuizzes,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed, type FieldErrors } from '../http/errors'
import { notify } from '../notifications/notifications.service'
import { rescore, settle } from '../outcomes/outcomes.service'
import { evaluateAnswer } from './marking'
import { createLiveReleaseGate, reaches, type MarkingUser } from './marker-reach'
import {
  answersOfAttempts,
  claimNextAnswer,
  countAnswersByQuestion,
  endClaim,
  findQuiz,
  findAnswerForMarking,
  hasPages,
  listMarkedInQuiz,
  listPages,
  listPaperQuestions,
  listPendingAttempts,
  listQuizzesToMark,
  anonymousCode,
  releaseBlank,
  storeAnnotations,
  writtenRevisions,
} from './marking.repository'
import { acceptedRequestOf, settleByMarking } from './regrades.service'
import { writtenResultLink } from './result-link'
import { findRubric } from './rubric.repository'
import { revisionOf, toRubricDto } from './rubric'
import {
  findWrittenAnswer,
  insertWrittenAnswer,
  listAnswerItems,
  quizTitles,
  setReleased,
} from './written-answers.repository'

// Markers' queue, marks, claims and release (API.md "Written answers marked by rubric", docs/decisions/068).

const CLAIM_MS = markingLimits.claimMinutes * 60_000
const notFound = () => new NotFound('Not found.')

/** The quiz's written questions, in paper order (questions only drawn come after, by id). */
async function writtenQuestionsOf(db: Kysely<DB>, quizId: number, now: number) {
  const paper = await listPaperQuestions(db, quizId)
  const counts = await countAnswersByQuestion(db, quizId, now)
  const numbered = paper.flatMap((item, index) =>
    item.type === 'written' ? [{ questionId: item.question_id!, number: index + 1 }] : [],
  )
  const known = new Set(numbered.map((question) => question.questionId))
  const drawn = counts
    .map((row) => row.question_id)
    .filter((id) => !known.has(id))
    .sort((a, b) => a - b)
  drawn.forEach((questionId, index) => numbered.push({ questionId, number: paper.length + index + 1 }))
  return { numbered, counts }
}

async function quizExists(db: Kysely<DB>, quizId: number, { lock = false } = {}) {
  const quiz = await findQuiz(db, quizId, { lock })
  if (!quiz) throw notFound()
  return quiz
}

export function createMarkingService({ database, clock, config }: Pick<AppContext, 'database' | 'clock' | 'config'>) {
  const urlKey = pageUrlKey(config.jwtSecret)
  const { db } = database
  const postgres = database.dialect === 'postgres'
  const refuseWhileKeyWithheld = createLiveReleaseGate({ graceMs: config.submitGraceSeconds * 1000 })

  async function overview(quizId: number): Promise<MarkingOverview> {
    await quizExists(db, quizId)
    const { numbered, counts } = await writtenQuestionsOf(db, quizId, clock.now())
    const byQuestion = new Map(counts.map((row) => [row.question_id, row]))
    return {
      questions: numbered.map(({ questionId, number }) => {
        const row = byQuestion.get(questionId)
        return {
          question_id: questionId,
          number,
          submitted: Number(row?.submitted ?? 0),
          marked: Number(row?.marked ?? 0),
          released: Number(row?.released ?? 0),
          claimed: Number(row?.claimed ?? 0),
        }
      }),
    }
  }

  /** A marker's way in: the quizzes with written answers, newest activity first (docs/decisions/094). */
  async function quizzes(page: number, readerId: number): Promise<MarkingQuizzes> {
    const pageSize = markingLimits.quizzesPageSize
    const { count, rows } = await listQuizzesToMark(db, { readerId, limit: pageSize, offset: (page - 1) * pageSize })
    return {
      count,
      page_size: pageSize,
      quizzes: rows.map((row) => ({
        id: row.id,
        // Nepali as stored, '' when none: the web app shows English then, marked with its `lang`.
        title: { en: row.title_en, ne: row.title_ne },
        questions: Number(row.questions),
        submitted: Number(row.submitted),
        marked: Number(row.marked),
        released: Number(row.released),
        to_mark: Number(row.to_mark),
        last_activity: new Date(Number(row.last_activity)).toISOString(),
      })),
    }
  }

  async function describe(trx: Kysely<DB>, answerId: number): Promise<MarkingAnswer> {
    const answer = (await findAnswerForMarking(trx, answerId))!
    const [pages, rubric, written] = await Promise.all([
      listPages(trx, answerId),
      findRubric(trx, answer.question_id),
      findWrittenAnswer(trx, answerId),
    ])
    const items = answer.status === 'submitted' ? [] : ((await listAnswerItems(trx, [answerId])).get(answerId) ?? [])
    return {
      answer_id: answer.id,
      anonymous_code: anonymousCode(answer.id),
      text: answer.text,
      word_count: answer.word_count,
      pages: pages.map((page) => ({
        id: page.id,
        ...pageUrls(urlKey, page.id, clock.now()),
        width: page.width,
        height: page.height,
      })),
      rubric: toRubricDto(answer.question_id, written?.marks ?? 0, rubric),
      evaluation:
        answer.status === 'submitted'
          ? null
          : {
              items,
              adjustment: fromHundredths(answer.adjustment),
              comment:
                answer.comment_en === null && answer.comment_ne === null
                  ? null
                  : { en: answer.comment_en ?? '', ne: answer.comment_ne ?? '' },
              annotations: pages.flatMap((page) =>
                page.annotations === null ? [] : [{ page_id: page.id, doc: JSON.parse(page.annotations) as unknown }],
              ),
              rubric_revision: answer.rubric_revision,
              score: fromHundredths(answer.score_hundredths ?? 0),
            },
    }
  }

  /** The next unmarked answer of the quiz's written question, claimed for 10 minutes; null when none is left. */
  async function next(quizId: number, questionId: number, actor: UserActor): Promise<MarkingAnswer | null> {
    await quizExists(db, quizId)
    const now = clock.now()
    const { numbered } = await writtenQuestionsOf(db, quizId, now)
    if (!numbered.some((question) => question.questionId === questionId)) throw notFound()
    return database.transaction(async (trx) => {
      const answerId = await claimNextAnswer(trx, {
        quizId,
        questionId,
        markerId: actor.id,
        now,
        until: now + CLAIM_MS,
        skipLocked: postgres,
      })
      return answerId === undefined ? null : describe(trx, answerId)
    })
  }

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

  /** Ends the actor's claim (an admin may end anyone's); another marker's live claim -> 409. No claim: nothing. */
  async function endAnswerClaim(answerId: number, actor: UserActor, isAdmin: boolean) {
    await database.transaction(async (trx) => {
      const now = clock.now()
      const answer = await findAnswerForMarking(trx, answerId, { lock: postgres })
      if (!answer || !(await reaches(trx, answer, { id: actor.id, isAdmin }, postgres))) throw notFound()
      if (answer.claimed_by === null || (answer.claimed_until ?? 0) <= now) return
      if (answer.claimed_by !== actor.id && !isAdmin)
        throw new Conflict(markingMessages.claimedByOther, 'claimed_by_other')
      await endClaim(trx, answerId)
      await recordAudit(trx, actor, now, {
        action: 'claim_end',
        entityType: 'written_answer',
        entityId: answerId,
        label: anonymousCode(answer.id),
        before: { claimed_by: answer.claimed_by },
        after: { claimed_by: null },
      })
    })
  }

  /** One answer of a finished attempt, as `next` shows it, with its marks if marked: to mark it again. */
  async function answer(answerId: number, user: MarkingUser): Promise<MarkingAnswer> {
    const found = await findAnswerForMarking(db, answerId)
    if (!found || found.attempt_status !== 'finished' || !(await reaches(db, found, user))) throw notFound()
    return describe(db, answerId)
  }

  return {
    overview,
    quizzes,
    answer,
    next,
    evaluate,
    endClaim: endAnswerClaim,
    release: (quizId: number, questionIds: readonly number[] | undefined, actor: UserActor, isAdmin: boolean) =>
      release(quizId, questionIds, actor, isAdmin),
  }

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
}

export type MarkingService = ReturnType<typeof createMarkingService>
