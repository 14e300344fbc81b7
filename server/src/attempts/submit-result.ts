import type { SubmitResult } from '@quiz/contracts'
import type { Kysely } from 'kysely'
import type { AttemptRow, DB } from '../db/schema'
import { toIso } from '../lib/clock'
import type { Paper } from '../questions/question-papers'
import { scoreBySection, toScore, type AnswerValue } from '../questions/scoring'
import { attemptSections } from '../questions/sections'
import { listAnswers } from './attempts.repository'

/** A finished attempt as the submit answers it; section tallies recounted, the score never. */
export async function toSubmitResult(
  trx: Kysely<DB>,
  attempt: AttemptRow,
  paper: Pick<Paper, 'questions'>,
  answers?: ReadonlyMap<number, AnswerValue>,
): Promise<SubmitResult> {
  const correct = attempt.correct ?? 0
  const incorrect = attempt.incorrect ?? 0
  const unanswered = attempt.unanswered ?? 0
  const sections = attemptSections(attempt.sections, paper.questions.length)
  const tallies = scoreBySection(paper.questions, answers ?? (await listAnswers(trx, attempt.id)), sections).sections
  return {
    max_score: toScore(tallies.reduce((sum, tally) => sum + tally.max_hundredths, 0)),
    sections: sections.map((section, index) => ({
      title: { en: section.title_en, ne: section.title_ne },
      score: toScore(tallies[index]!.score_hundredths),
      max_score: toScore(tallies[index]!.max_hundredths),
      correct: tallies[index]!.correct,
      incorrect: tallies[index]!.incorrect,
      unanswered: tallies[index]!.unanswered,
    })),
    attempt_id: attempt.id,
    score: toScore(attempt.score_hundredths ?? 0),
    correct,
    incorrect,
    unanswered,
    total_questions: correct + incorrect + unanswered,
    completed_timestamp: toIso(attempt.finished_at ?? attempt.deadline),
    late: attempt.late === 1,
    ranked: attempt.ranked === 1,
  }
}
