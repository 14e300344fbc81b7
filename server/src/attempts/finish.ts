import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { withAnswerKeys, type Paper, type QuestionPapers } from '../questions/question-papers'
import {
  markQuestion,
  OBJECTIVE_TYPES,
  sectionMarks,
  type AnswerValue,
  type ScoredQuestion,
} from '../questions/scoring'
import { attemptSections, DEFAULT_MARKS_CORRECT, DEFAULT_MARKS_WRONG, type AttemptSection } from '../questions/sections'
import { createOutcomes, withdraw, type FinishTarget, type Outcomes } from '../outcomes/outcomes.service'
import { listAnswers, upsertAnswers, type AnswerEntry } from './attempts.repository'
import { oweCards } from './practice-deck.repository'

export type { BegunAttempt, FinishTarget } from '../outcomes/outcomes.service'

export interface Finish {
  answers?: ReadonlyMap<number, AnswerValue>
  write?: readonly AnswerEntry[]
  finishedAt: number
  late: boolean
  submitted: boolean
  /** The attempt's paper with its keys read locked, when the caller read it already (to check the answers). */
  paper?: Paper
  /** A paper attempt taking back the number of the one it replaces: which attempt counts is counted afresh. */
  replacing?: boolean
  boardLater?: boolean
}

export interface Finished {
  attempt: AttemptRow
  paper: Paper
  answers: ReadonlyMap<number, AnswerValue>
}

/** The one way an attempt finishes; the caller's transaction runs in retryAfterKeyDecisions (questions/key-locks.ts). */
export function createFinish({
  papers,
  isPostgres,
  outcomes = createOutcomes(),
}: {
  papers: QuestionPapers
  isPostgres: boolean
  outcomes?: Outcomes
}) {
  // Keys read locked so a key decision waits; no option order, so the cache keeps one entry per paper.
  const lockedPaper = async (
    trx: Kysely<DB>,
    attempt: Pick<AttemptRow, 'revision_ids'>,
    knownPassagesVersion?: number,
  ) =>
    withAnswerKeys(trx, await papers.paperFor(trx, attempt.revision_ids, undefined, knownPassagesVersion), {
      lock: isPostgres,
    })

  async function finish(trx: Kysely<DB>, target: FinishTarget, how: Finish): Promise<Finished> {
    const begun = 'inProgress' in target ? target.inProgress : target.begun
    const paper = how.paper ?? (await lockedPaper(trx, begun))
    const answers = how.answers ?? ('inProgress' in target ? await listAnswers(trx, target.inProgress.id) : new Map())
    if ('inProgress' in target && how.write) await upsertAnswers(trx, target.inProgress.id, how.write, how.finishedAt)
    const attempt = await outcomes.finish(trx, {
      target,
      questions: paper.questions,
      sections: attemptSections(begun.sections, paper.questions.length),
      answers,
      finishedAt: how.finishedAt,
      late: how.late,
      submitted: how.submitted,
      replacing: how.replacing,
      boardLater: how.boardLater,
    })
    if ('begun' in target && how.write) await upsertAnswers(trx, attempt.id, how.write, how.finishedAt)
    await addMistakesToDeck(
      trx,
      attempt,
      paper.questions,
      answers,
      attemptSections(begun.sections, paper.questions.length),
    )
    return { attempt, paper, answers }
  }

  return { finish, lockedPaper }
}

const DEFAULT_SECTION = { correct: DEFAULT_MARKS_CORRECT, wrong: DEFAULT_MARKS_WRONG }

/** A deleted scan's attempt: its outcome goes with it (outcomes' `withdraw`); practice cards stay (decision 056). */
export const withdrawFinished = withdraw

async function addMistakesToDeck(
  trx: Kysely<DB>,
  attempt: AttemptRow,
  questions: readonly ScoredQuestion[],
  answers: ReadonlyMap<number, AnswerValue>,
  sections: readonly AttemptSection[],
) {
  // Any objective answer short of full marks enters the deck (API.md "Question types"); written questions never do.
  const marks = sections.flatMap((section) => Array.from({ length: section.count }, () => sectionMarks(section)))
  const mistakes = questions
    .filter((question, place) => {
      if (question.type !== undefined && !(OBJECTIVE_TYPES as readonly string[]).includes(question.type)) return false
      const { outcome } = markQuestion(question, answers.get(question.questionId), marks[place] ?? DEFAULT_SECTION)
      return outcome !== 'correct' && outcome !== 'excluded'
    })
    .map((question) => question.questionId)
  await oweCards(trx, { userId: attempt.user_id, quizId: attempt.quiz_id, questionIds: mistakes }, attempt.finished_at!)
}
