import { usernamesOf } from '../accounts/users.repository'
import {
  fromHundredths,
  writtenMessages,
  type Rescored,
  type Rubric,
  type RubricResult,
  type RubricStats,
} from '@quiz/contracts'
import type { Kysely } from 'kysely'
import { recordAudit, recordAudits, type AuditActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { Conflict, NotFound, ValidationFailed, type FieldErrors } from '../http/errors'
import { toDevanagariDigits } from '../lib/digits'
import { notify } from '../notifications/notifications.service'
import { rankMovesOf, rescore, type RescoredAttempt, type ScoreChange } from '../outcomes/outcomes.service'
import {
  deleteRubricGroups,
  deleteRubricItems,
  findRubric,
  findRubricQuestion,
  insertRubricGroup,
  insertRubricItem,
  markedAnswerFigures,
  quizExists,
  updateRubricGroup,
  updateRubricItem,
  upsertRubric,
} from './rubric.repository'
import {
  compareRubrics,
  plannedRubric,
  revisionOf,
  scoringRubricOf,
  toRubricDto,
  type RubricInput,
  type StoredRubric,
} from './rubric'
import {
  insertRescores,
  listAnswerItems,
  listMarkedAnswers,
  quizTitles,
  setAnswerScores,
  type MarkedAnswer,
} from './written-answers.repository'
import { exclusiveClashes, scoreWrittenAnswer } from './written-score'
import { anonymousCode } from './marking.repository'
import { writtenResultLink } from './result-link'

const LISTED_RANK_CHANGES = 100
const two = (hundredths: number) => (hundredths / 100).toFixed(2)

interface Rescore {
  answer: MarkedAnswer
  newScore: number
}

/** A written question of the bank, else 404: only a written question has a rubric. */
async function writtenQuestion(db: Kysely<DB>, questionId: number, { lock = false } = {}) {
  const question = await findRubricQuestion(db, questionId, { lock })
  if (!question) throw new NotFound('Question not found.')
  if (question.type !== 'written') throw new NotFound(writtenMessages.notWritten)
  return { id: question.id, marks: question.marks ?? 0, label: question.text_en.slice(0, 80) }
}

/** Ids the PUT names must be this rubric's; an item's group must be one the PUT keeps. */
function checkIds(input: RubricInput, stored: StoredRubric, marks: number) {
  const errors: FieldErrors = {}
  const groupIds = new Set(stored.groups.map((group) => group.id))
  const itemIds = new Set(stored.items.map((item) => item.id))
  const keptGroups = new Set(input.groups.flatMap((group) => (group.id ? [group.id] : [])))
  input.groups.forEach((group, index) => {
    if (group.id && !groupIds.has(group.id)) errors[`groups.${index}.id`] = [writtenMessages.unknownGroup]
  })
  input.items.forEach((item, index) => {
    if (item.id && !itemIds.has(item.id)) errors[`items.${index}.id`] = [writtenMessages.unknownItem]
    if (item.group_id && !keptGroups.has(item.group_id))
      errors[`items.${index}.group_id`] = [writtenMessages.unknownGroup]
  })
  const hundredths = (value: number | null) => (value === null ? null : Math.round(value * 100))
  const ceiling = hundredths(input.ceiling)
  const floor = hundredths(input.floor)
  if (ceiling !== null && ceiling > marks) errors.ceiling = [writtenMessages.ceilingAboveMarks]
  if (floor !== null && ceiling === null && floor > marks) errors.floor = [writtenMessages.floorAboveMarks]
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
}

/** How every marked answer the change touches scores under the planned rubric; a clash it would cause is a 400. */
async function planRescores(
  db: Kysely<DB>,
  questionId: number,
  before: StoredRubric,
  after: StoredRubric,
): Promise<Rescore[]> {
  const change = compareRubrics(before, after)
  if (change.same || (!change.scoresAll && change.changedItems.length + change.deletedItems.length === 0)) return []
  const answers = await listMarkedAnswers(
    db,
    questionId,
    change.scoresAll ? undefined : [...change.changedItems, ...change.deletedItems],
  )
  const items = await listAnswerItems(
    db,
    answers.map((answer) => answer.id),
  )
  const deleted = new Set(change.deletedItems)
  const scoring = scoringRubricOf(after)
  const rescores: Rescore[] = []
  const errors: FieldErrors = {}
  for (const answer of answers) {
    const kept = (items.get(answer.id) ?? []).filter((id) => !deleted.has(id))
    const clash = exclusiveClashes(scoring, kept)[0]
    if (clash) {
      const index = after.groups.findIndex((group) => group.id === clash[0])
      errors[`groups.${index}.exclusive`] = [writtenMessages.exclusiveHeld]
      continue
    }
    const newScore = scoreWrittenAnswer(scoring, { marks: answer.marks, items: kept, adjustment: answer.adjustment })
    if (newScore !== answer.score_hundredths) rescores.push({ answer, newScore })
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors)
  return rescores
}

async function summarise(db: Kysely<DB>, rescores: readonly Rescore[]) {
  // Only released marks are in an attempt's score (API.md "Results").
  const released = rescores.filter(({ answer }) => answer.status === 'released')
  const changes: ScoreChange[] = released.map(({ answer, newScore }) => ({
    attemptId: answer.attempt_id,
    delta: { score_hundredths: newScore - answer.score_hundredths },
  }))
  const ranks = (await rankMovesOf(db, changes)).slice(0, LISTED_RANK_CHANGES)
  const names = await usernamesOf(
    db,
    ranks.map((move) => move.user_id),
  )
  const rescored: Rescored = {
    answers: rescores.length,
    attempts: new Set(released.map(({ answer }) => answer.attempt_id)).size,
    learners_notified: new Set(released.map(({ answer }) => answer.attempt.user_id)).size,
    rank_changes: ranks.map(({ user_id, ...move }) => ({ username: names.get(user_id) ?? '', ...move })),
  }
  return { changes, rescored }
}

/** Writes the planned rubric: edits in place (ids stay), new groups and items, deletions; returns the new revision. */
async function storeRubric(trx: Kysely<DB>, before: StoredRubric, after: StoredRubric, now: number) {
  const revision = revisionOf(before) + 1
  await upsertRubric(trx, after.row!, revision, now)
  const groupIds = new Map<number, number>()
  for (const { id, ...group } of after.groups) {
    if (id > 0) await updateRubricGroup(trx, id, group)
    groupIds.set(id, id > 0 ? id : await insertRubricGroup(trx, group))
  }
  for (const { id, ...item } of after.items) {
    const values = { ...item, group_id: item.group_id === null ? null : groupIds.get(item.group_id)! }
    if (id > 0) await updateRubricItem(trx, id, values)
    else await insertRubricItem(trx, values)
  }
  const change = compareRubrics(before, after)
  await deleteRubricItems(trx, change.deletedItems)
  await deleteRubricGroups(trx, change.deletedGroups)
  return revision
}

/** Each learner whose score moved, linked to the question's answer on their report (its rubric is the one changed). */
async function notifyRescored(trx: Kysely<DB>, questionId: number, moved: readonly RescoredAttempt[], now: number) {
  const titles = await quizTitles(
    trx,
    moved.map((attempt) => attempt.quiz_id),
  )
  await notify(
    trx,
    moved.map((attempt) => {
      const title = titles.get(attempt.quiz_id) ?? { en: '', ne: '' }
      const from = two(attempt.before)
      const to = two(attempt.after)
      return {
        userId: attempt.user_id,
        kind: 'score_changed' as const,
        text: {
          en: `The marking scheme of a written question in “${title.en}” changed: your score went from ${from} to ${to}.`,
          ne: `“${title.ne}” को लिखित प्रश्नको अङ्कन योजना बदलियो: तपाईंको अङ्क ${toDevanagariDigits(from)} बाट ${toDevanagariDigits(to)} भयो।`,
        },
        link: writtenResultLink(attempt.id, questionId),
      }
    }),
    now,
  )
}

export function createRubricService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  const { db } = database

  return {
    /** How the question's rubric was used: answers marked, their mean, and each item's uses (API.md "Statistics"). */
    async stats(questionId: number, quizId: number | undefined): Promise<RubricStats> {
      await writtenQuestion(db, questionId)
      if (quizId !== undefined && !(await quizExists(db, quizId))) throw new NotFound('Quiz not found.')
      const [rubric, figures] = await Promise.all([
        findRubric(db, questionId),
        markedAnswerFigures(db, questionId, quizId),
      ])
      const { marked } = figures
      return {
        marked,
        mean: marked > 0 ? Math.round(figures.gained / marked) / 100 : null,
        items: rubric.items.map((item) => {
          const applied = figures.applied.get(item.id) ?? 0
          return {
            id: item.id,
            title: { en: item.title_en, ne: item.title_ne },
            applied,
            share: marked > 0 ? Math.round((applied / marked) * 10_000) / 10_000 : null,
          }
        }),
      }
    },

    async get(questionId: number): Promise<Rubric> {
      const question = await writtenQuestion(db, questionId)
      return toRubricDto(question.id, question.marks, await findRubric(db, questionId))
    },

    /** Stale `revision` -> 409 `rubric_changed`; a dry run plans the same and stores nothing. */
    put(questionId: number, input: RubricInput, actor: AuditActor): Promise<RubricResult> {
      return database.transaction(async (trx) => {
        // Two teachers saving at once: on PostgreSQL the second waits for the question's row, then finds its revision
        // stale (a first rubric has no row of its own to lock); SQLite's write transactions are one at a time.
        const question = await writtenQuestion(trx, questionId, { lock: database.dialect === 'postgres' })
        const before = await findRubric(trx, questionId)
        if (input.revision !== revisionOf(before)) throw new Conflict(writtenMessages.rubricChanged, 'rubric_changed')
        checkIds(input, before, question.marks)
        const after = plannedRubric(questionId, input, question.marks)
        const rescores = await planRescores(trx, questionId, before, after)
        const { changes, rescored } = await summarise(trx, rescores)
        if (input.dry_run || compareRubrics(before, after).same)
          return { rubric: toRubricDto(question.id, question.marks, before), rescored }

        const now = clock.now()
        const revision = await storeRubric(trx, before, after, now)
        await setAnswerScores(
          trx,
          rescores.map(({ answer, newScore }) => ({ id: answer.id, score: newScore })),
          revision,
          now,
        )
        await insertRescores(
          trx,
          rescores.map(({ answer, newScore }) => ({
            answer_id: answer.id,
            attempt_id: answer.attempt_id,
            question_id: questionId,
            old_marks: answer.score_hundredths,
            new_marks: newScore,
            rubric_revision: revision,
            actor_id: actor.id,
            created_at: now,
          })),
        )
        // API.md: every answer's re-score is in the audit trail, beside the rubric change's own event.
        await recordAudits(
          trx,
          actor,
          now,
          rescores.map(({ answer, newScore }) => ({
            action: 'rescore',
            entityType: 'written_answer',
            entityId: answer.id,
            label: anonymousCode(answer.id),
            before: { score: fromHundredths(answer.score_hundredths) },
            after: { score: fromHundredths(newScore), rubric_revision: revision, question_id: questionId },
          })),
        )
        await notifyRescored(trx, questionId, await rescore(trx, changes), now)
        const stored = await findRubric(trx, questionId)
        const beforeDto = toRubricDto(question.id, question.marks, before)
        const afterDto = toRubricDto(question.id, question.marks, stored)
        await recordAudit(trx, actor, now, {
          action: 'update',
          entityType: 'question',
          entityId: questionId,
          label: question.label,
          before: { rubric: beforeDto },
          after: { rubric: afterDto, rescored: rescored.answers },
        })
        return { rubric: afterDto, rescored }
      })
    },
  }
}

export type RubricService = ReturnType<typeof createRubricService>
