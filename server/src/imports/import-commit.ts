import {
  adminLimits,
  importMessages,
  type ImportCommitBodySchema,
  type ImportCommitResult,
  type ImportImage,
} from '@quiz/contracts'
import type { z } from 'zod'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import { NotFound, ValidationFailed, type FieldErrors } from '../http/errors'
import { insertBankQuestion } from '../questions/question-revisions.repository'
import { setTags } from '../questions/question-tags.repository'
import { passageValues } from '../questions/paper-passages'
import { insertPassage, setPassageQuestions } from '../questions/passages.repository'
import { appendFixedItems } from '../questions/quiz-papers.repository'
import {
  bankQuestionsByHash,
  findDryRun,
  findLiveQuizFigures,
  lockImportCommits,
  setPaperPassages,
} from './imports.repository'
import { isImportable, namedRowErrors, passageKey, type HashedRow } from './rows'

type CommitBody = z.output<typeof ImportCommitBodySchema>

const COMMIT_SLICE = 100

/**
 * The rows to write, a passage's rows together at its first row's place (in row order among themselves), packed into
 * slices of about COMMIT_SLICE rows: a passage is written in one transaction with its questions, never split.
 */
function* slices(rows: HashedRow[], size: number) {
  const units: HashedRow[][] = []
  const byPassage = new Map<string, HashedRow[]>()
  for (const row of rows) {
    const key = row.passage ? passageKey(row.passage) : null
    const unit = key === null ? undefined : byPassage.get(key)
    if (unit) unit.push(row)
    else {
      units.push([row])
      if (key !== null) byPassage.set(key, units.at(-1)!)
    }
  }
  let slice: HashedRow[] = []
  for (const unit of units) {
    if (slice.length > 0 && slice.length + unit.length > size) {
      yield slice
      slice = []
    }
    slice.push(...unit)
  }
  if (slice.length > 0) yield slice
}

function refuseOverfullPaper(questions: number) {
  if (questions > adminLimits.maxQuestions)
    throw new ValidationFailed({
      quiz_id: [
        `This quiz's paper would hold ${questions} questions; a paper may hold at most ${adminLimits.maxQuestions}.`,
      ],
    })
}

export function createImportCommit({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database

  // Short transactions (docs/decisions/043); a slice skips what the bank gained since, so a retried commit completes.
  async function writeSlice(rows: HashedRow[], importId: number, actor: UserActor, now: number) {
    return database.transaction(async (trx) => {
      await lockImportCommits(trx, database.dialect)
      const inBank = await bankQuestionsByHash(
        trx,
        rows.map((row) => row.hash!),
      )
      const questionIds: number[] = []
      const passages = new Map<
        string,
        { text: { en: string; ne: string }; image: ImportImage; questionIds: number[] }
      >()
      for (const row of rows) {
        if (inBank.has(row.hash!)) continue
        const question = row.question
        const questionId = await insertBankQuestion(trx, question, now, question)
        await setTags(trx, questionId, question.tags)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'question',
          entityId: questionId,
          label: (question.text.en || question.text.ne).slice(0, 80),
          after: { import_id: importId, row: row.row, text: question.text, topic: question.topic },
        })
        questionIds.push(questionId)
        if (!row.passage) continue
        const key = passageKey(row.passage)
        const passage = passages.get(key) ?? { text: row.passage.text, image: null, questionIds: [] }
        passages.set(key, passage)
        // Rows of one passage text share it; its picture is the first any of them carries (decision 123).
        passage.image ??= row.passage.image ?? null
        passage.questionIds.push(questionId)
      }
      // Real bank passages (API.md "Question types"), their questions in row order; a passage whose every question
      // the bank already held gets none (its questions keep whatever passage they are in).
      const passageOf = new Map<number, number>()
      for (const passage of passages.values()) {
        const passageId = await insertPassage(trx, passageValues({ text: passage.text, image: passage.image }), now)
        await setPassageQuestions(trx, passageId, passage.questionIds)
        await recordAudit(trx, actor, now, {
          action: 'create',
          entityType: 'passage',
          entityId: passageId,
          label: (passage.text.en || passage.text.ne).slice(0, 80),
          after: { import_id: importId, text: passage.text, question_ids: passage.questionIds },
        })
        for (const questionId of passage.questionIds) passageOf.set(questionId, passageId)
      }
      return { questionIds, passageOf }
    })
  }

  async function commit(importId: number, body: CommitBody, actor: UserActor): Promise<ImportCommitResult> {
    const dryRun = await findDryRun(db, importId, clock.now())
    if (!dryRun) throw new NotFound('This import is not found or has expired; upload the file again.')
    const errors: FieldErrors = {}
    let chosen: HashedRow[]
    if (body.rows) {
      const named = new Set(body.rows)
      Object.assign(errors, namedRowErrors(dryRun.rows, body.rows))
      chosen = dryRun.rows.filter((row) => named.has(row.row) && isImportable(row))
    } else chosen = dryRun.rows.filter(isImportable)

    const quiz = body.quiz_id === undefined ? undefined : await findLiveQuizFigures(db, body.quiz_id)
    if (body.quiz_id !== undefined && !quiz) errors.quiz_id = [importMessages.unknownQuiz]
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
    const inBank = await bankQuestionsByHash(
      db,
      chosen.map((row) => row.hash!),
    )
    const fresh = new Map<string, HashedRow>()
    for (const row of chosen) if (!inBank.has(row.hash!) && !fresh.has(row.hash!)) fresh.set(row.hash!, row)
    if (quiz) refuseOverfullPaper(quiz.question_count + fresh.size)

    const now = clock.now()
    const questionIds: number[] = []
    const passageOf = new Map<number, number>()
    for (const slice of slices([...fresh.values()], COMMIT_SLICE)) {
      const written = await writeSlice(slice, importId, actor, now)
      questionIds.push(...written.questionIds)
      for (const [questionId, passageId] of written.passageOf) passageOf.set(questionId, passageId)
      // A turn of the event loop between slices: learners' requests are answered while thousands are written.
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (quiz && questionIds.length > 0)
      await database.transaction(async (trx) => {
        const current = (await findLiveQuizFigures(trx, quiz.id))!
        refuseOverfullPaper(current.question_count + questionIds.length)
        await appendFixedItems(trx, quiz.id, questionIds)
        // A passage's questions in a paper are the passage's items (its questions in its order, together).
        await setPaperPassages(trx, quiz.id, passageOf)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'quiz',
          entityId: quiz.id,
          label: quiz.title_en,
          after: { import_id: importId, added_question_ids: questionIds },
        })
      })
    return { imported: questionIds.length, duplicates: chosen.length - questionIds.length, question_ids: questionIds }
  }

  return commit
}
