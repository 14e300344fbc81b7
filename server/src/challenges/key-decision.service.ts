import { usernamesOf } from '../accounts/users.repository'
import type { KeyDecisionRequestSchema, KeyDecisionResult } from '@quiz/contracts'
import { challengeLimits, challengeMessages, NumericKeyInputSchema } from '@quiz/contracts'
import type { NumericKey } from '@quiz/contracts/rules/numbers'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { recordAudit, type UserActor } from '../audit/audit-log'
import type { AppContext } from '../context'
import type { DB } from '../db/schema'
import { AppError, NotFound, ValidationFailed } from '../http/errors'
import { findAnswerKeys, type AnswerKey } from '../questions/answer-keys'
import { numericKeyOf } from '../questions/question-revisions.repository'
import { toScore, type ScoredQuestion } from '../questions/scoring'
import {
  recordRegrades,
  decideOpenFlags,
  findRevisionOptionIds,
  findRevisionRow,
  insertKeyVersion,
  listAttemptsHoldingRevision,
  lockRevision,
  pointRevisionAtKey,
  questionExists,
  removeCards,
} from './challenges.repository'
import { markChanges, type MarkChange } from './regrade'
import { notifyKeyDecision } from './key-notifications'
import { refusedAfterCommit } from '../http/refusals'
import { payOwedCards, putCardsInFirstBox } from '../attempts/attempts.service'
import { rankMovesOf, rescore, type ScoreChange } from '../outcomes/outcomes.service'

type Decision = z.output<typeof KeyDecisionRequestSchema>

const sameSet = (a: ReadonlySet<number>, b: ReadonlySet<number>) => a.size === b.size && [...a].every((id) => b.has(id))

export function createKeyDecisionService({ database, clock }: Pick<AppContext, 'database' | 'clock'>) {
  async function decide(actor: UserActor, questionId: number, body: Decision): Promise<KeyDecisionResult> {
    if (body.dry_run) return run(database.db, actor, questionId, body, false)
    return refusedAfterCommit(
      database.transaction(async (trx) => {
        try {
          return await run(trx, actor, questionId, body, true)
        } catch (error) {
          // Refusals roll nothing back that was written: they are found before any write.
          if (error instanceof AppError) return error
          throw error
        }
      }),
    )
  }

  async function run(
    db: Kysely<DB>,
    actor: UserActor,
    questionId: number,
    body: Decision,
    commit: boolean,
  ): Promise<KeyDecisionResult> {
    if (!(await questionExists(db, questionId))) throw new NotFound('Question not found.')
    const revision = await findRevisionRow(db, body.revision_id)
    if (!revision || revision.question_id !== questionId)
      throw new ValidationFailed({ revision_id: [challengeMessages.revisionNotOfQuestion] })
    if (body.action === 'accept_several' && revision.type === 'numeric')
      throw new ValidationFailed({ action: [challengeMessages.severalNotNumeric] })
    const answer = numericAnswerOf(revision.type, body)
    const options = await findRevisionOptionIds(db, revision.id)
    const optionIds = new Set(options.map((option) => option.id))
    const named = body.correct_option_ids ?? []
    const foreign = named.findIndex((id) => !optionIds.has(id))
    if ((body.action === 'change' || body.action === 'accept_several') && foreign >= 0)
      throw new ValidationFailed({ [`correct_option_ids.${foreign}`]: [challengeMessages.optionNotOfRevision] })
    // A multiple question's change names its whole right set; a one-answer question's exactly one option.
    if (body.action === 'change' && revision.type !== 'numeric' && named.length === 0)
      throw new ValidationFailed({ correct_option_ids: [challengeMessages.correctOptionsRequired] })
    if (body.action === 'change' && revision.type !== 'multiple' && revision.type !== 'numeric' && named.length !== 1)
      throw new ValidationFailed({ correct_option_ids: [challengeMessages.changeNeedsOne] })

    // Serialises decisions on the revision, and taken before the search so a finish either committed before it or
    // reads the decided key (questions/key-locks.ts, docs/decisions/036 "In the code").
    if (commit && database.dialect === 'postgres') await lockRevision(db, revision.id)
    const now = clock.now()
    const current = (await findAnswerKeys(db, [revision.id])).get(revision.id)
    const authored = options.filter((option) => option.is_correct === 1).map((option) => option.id)
    const authoredCorrect = authored[0] ?? null
    const currentCorrect = current?.correct ?? new Set(authored)
    const correct =
      body.action === 'change' || body.action === 'accept_several' ? new Set(named) : new Set(currentCorrect)
    const drop = body.action === 'drop' ? (body.drop_policy ?? 'full_marks_all') : null
    // A numeric question's value or range: the one this change gives, else the one it scores on now.
    const authoredAnswer = numericKeyOf(revision)
    const currentAnswer = current?.answer ?? authoredAnswer
    const newAnswer = answer ?? currentAnswer
    const unchanged =
      current !== undefined &&
      current.action === body.action &&
      current.drop === drop &&
      sameSet(correct, currentCorrect) &&
      JSON.stringify(newAnswer) === JSON.stringify(currentAnswer)

    const newKey: AnswerKey = {
      revisionId: revision.id,
      version: (current?.version ?? 0) + 1,
      versionId: 0,
      action: body.action,
      correct,
      ...(newAnswer && { answer: newAnswer }),
      drop,
      note: body.note,
      decidedAt: now,
    }
    const scoredAs: ScoredQuestion = {
      questionId,
      correctOptionId: authoredCorrect,
      type: revision.type,
      correctOptionIds: new Set(authored),
      ...(authoredAnswer && { numeric: { answer: authoredAnswer, decimals: revision.decimals } }),
    }
    const holding = unchanged ? [] : await listAttemptsHoldingRevision(db, database.dialect, revision.id, questionId)
    const changes = unchanged ? [] : markChanges(holding, revision.id, scoredAs, current, newKey)
    const scored = changes.filter((change) => change.oldMarks !== change.newMarks)

    const newScoreOf = new Map(
      scored.map((change) => [change.attempt.id, change.attempt.score_hundredths + change.newMarks - change.oldMarks]),
    )
    const ranks = await rankMovesOf(db, scoreChangesOf(scored))
    const listed = [...scored]
      .sort(
        (a, b) => Math.abs(b.newMarks - b.oldMarks) - Math.abs(a.newMarks - a.oldMarks) || a.attempt.id - b.attempt.id,
      )
      .slice(0, challengeLimits.listedChanges)
    const listedRanks = ranks.slice(0, challengeLimits.listedChanges)
    const names = await usernamesOf(db, [
      ...listed.map((change) => change.attempt.user_id),
      ...listedRanks.map((move) => move.user_id),
    ])
    const result: KeyDecisionResult = {
      attempts_affected: scored.length,
      learners_affected: new Set(scored.map((change) => change.attempt.user_id)).size,
      score_changes: listed.map((change) => ({
        attempt_id: change.attempt.id,
        username: names.get(change.attempt.user_id) ?? '',
        old_score: toScore(change.attempt.score_hundredths),
        new_score: toScore(newScoreOf.get(change.attempt.id)!),
      })),
      rank_changes: listedRanks.map(({ user_id, ...move }) => ({ username: names.get(user_id) ?? '', ...move })),
    }
    if (!commit) return result

    let versionId = current?.versionId ?? 0
    let version = current?.version ?? 0
    if (!unchanged) {
      const written = await insertKeyVersion(db, {
        revision_id: revision.id,
        question_id: questionId,
        version: newKey.version,
        action: body.action,
        correct_option_ids: JSON.stringify([...correct].sort((a, b) => a - b)),
        numeric_answer: answer ? JSON.stringify(answer) : null,
        drop_policy: drop,
        note: body.note,
        actor_id: actor.id,
        actor_username: actor.username,
        created_at: now,
      })
      versionId = written.id
      version = newKey.version
      await pointRevisionAtKey(db, revision.id, version)
      await applyChanges(db, questionId, revision.id, changes, versionId, actor, now)
      await recordAudit(db, actor, now, {
        action: 'key_decision',
        entityType: 'question',
        entityId: questionId,
        label: revision.text_en.slice(0, 200),
        before: {
          revision_id: revision.id,
          key_version: current?.version ?? 0,
          correct_option_ids: [...currentCorrect].sort((a, b) => a - b),
          ...(currentAnswer && { answer: currentAnswer }),
          drop_policy: current?.drop ?? null,
        },
        after: {
          revision_id: revision.id,
          key_version: version,
          action: body.action,
          correct_option_ids: [...correct].sort((a, b) => a - b),
          ...(newAnswer && { answer: newAnswer }),
          drop_policy: drop,
          note: body.note,
          attempts_affected: result.attempts_affected,
        },
      })
    }
    const flaggers =
      versionId === 0
        ? []
        : await decideOpenFlags(db, revision.id, body.action === 'keep' ? 'rejected' : 'accepted', versionId, now)
    await notifyKeyDecision(db, {
      status: body.action === 'keep' ? 'rejected' : 'accepted',
      note: body.note,
      flaggers,
      scored: unchanged ? [] : scored,
      now,
    })
    return { ...result, key_version: version }
  }

  return { decide }
}

async function applyChanges(
  db: Kysely<DB>,
  questionId: number,
  revisionId: number,
  changes: readonly MarkChange[],
  keyVersionId: number,
  actor: UserActor,
  now: number,
) {
  await recordRegrades(
    db,
    changes.map((change) => ({
      attempt_id: change.attempt.id,
      question_id: questionId,
      revision_id: revisionId,
      old_marks: change.oldMarks,
      new_marks: change.newMarks,
      old_outcome: change.oldOutcome,
      new_outcome: change.newOutcome,
      key_version_id: keyVersionId,
      actor_id: actor.id,
      created_at: now,
    })),
  )
  await rescore(db, scoreChangesOf(changes))

  // The deck follows the learner's latest changed attempt: an answer now right (or a question now void) leaves it,
  // an answer now wrong enters box 1.
  // Short of full marks is wrong for the deck, a partly right answer included (API.md "Question types").
  const wrong = (outcome: string) => outcome === 'incorrect' || outcome === 'partial' || outcome === 'unanswered'
  const latest = new Map<number, MarkChange>()
  for (const change of changes) latest.set(change.attempt.user_id, change)
  const leave: number[] = []
  const enter: { user_id: number; quiz_id: number }[] = []
  for (const change of latest.values()) {
    if (wrong(change.oldOutcome) && !wrong(change.newOutcome)) leave.push(change.attempt.user_id)
    if (!wrong(change.oldOutcome) && wrong(change.newOutcome))
      enter.push({ user_id: change.attempt.user_id, quiz_id: change.attempt.quiz_id })
  }
  // Cards a finish still owes go in first: written after this, a card taken out here would come back (decision 080).
  await payOwedCards(db, [...leave, ...enter.map((card) => card.user_id)])
  await removeCards(db, questionId, leave)
  await putCardsInFirstBox(
    db,
    enter.map((card) => ({ userId: card.user_id, quizId: card.quiz_id, questionIds: [questionId] })),
    now,
  )
}

/**
 * A numeric question's new value or range (a `change` gives it in `answer`, checked as the bank checks a question's
 * key, refusals at `answer.<field>`); `answer` on another type, or options named for a numeric question, -> 400.
 */
function numericAnswerOf(type: string, body: Decision): NumericKey | undefined {
  if (type !== 'numeric') {
    if (body.answer !== undefined) throw new ValidationFailed({ answer: [challengeMessages.answerOnlyNumeric] })
    return undefined
  }
  if (body.action !== 'change') return undefined
  if ((body.correct_option_ids ?? []).length > 0)
    throw new ValidationFailed({ correct_option_ids: [challengeMessages.optionsNotNumeric] })
  if (body.answer === undefined) throw new ValidationFailed({ answer: [challengeMessages.answerRequired] })
  const read = NumericKeyInputSchema.safeParse(body.answer)
  if (read.success) return read.data
  const errors: Record<string, string[]> = {}
  for (const issue of read.error.issues) (errors[['answer', ...issue.path].join('.')] ??= []).push(issue.message)
  throw new ValidationFailed(errors)
}

function scoreChangesOf(changes: readonly MarkChange[]): ScoreChange[] {
  // A partly right answer counts as incorrect (API.md: `correct` is full marks, `incorrect` any other answered).
  const counted = (outcome: string) => (outcome === 'partial' ? 'incorrect' : outcome)
  const moved = (change: MarkChange, outcome: string) =>
    (counted(change.newOutcome) === outcome ? 1 : 0) - (counted(change.oldOutcome) === outcome ? 1 : 0)
  return changes.map((change) => ({
    attemptId: change.attempt.id,
    delta: {
      score_hundredths: change.newMarks - change.oldMarks,
      correct: moved(change, 'correct'),
      incorrect: moved(change, 'incorrect'),
      unanswered: moved(change, 'unanswered'),
    },
  }))
}

export type KeyDecisionService = ReturnType<typeof createKeyDecisionService>
