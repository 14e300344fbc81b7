import type { Kysely } from 'kysely'
import type { LearnerPassage } from '@quiz/contracts'
import type { DB } from '../db/schema'
import type { PaperQuestion } from '../questions/question-papers'
import { currentVersion, findPassages, passageOfQuestions } from './passages.repository'
import { passageView } from './passages.service'

/** `highest:count` of the institute's passages; `0:0` when it has none (its papers skip the passage read). */
export async function passagesVersion(db: Kysely<DB>): Promise<string> {
  const { highest, count } = await currentVersion(db)
  return `${count === 0 ? 0 : highest}:${count}`
}

/** The paper's questions, each naming its passage and carrying it for the question route. */
export async function withPassages(db: Kysely<DB>, questions: PaperQuestion[]): Promise<PaperQuestion[]> {
  const membership = await passageOfQuestions(
    db,
    questions.map((question) => question.questionId),
  )
  if (membership.size === 0) return questions
  const passages = new Map<number, LearnerPassage>(
    (await findPassages(db, [...membership.values()])).map((row) => [row.id, passageView(row, 'learner')]),
  )
  return questions.map((question) => {
    const passage = passages.get(membership.get(question.questionId) ?? 0)
    if (!passage) return question
    return { ...question, passageId: passage.id, learner: { ...question.learner, passage } }
  })
}

/**
 * The paper's passages once each, and its questions naming theirs by `passage_id` (the offline paper and a live
 * mock's paper ahead): 10 passages under 100 questions are sent 10 times, not 100 (API.md's budget).
 */
export function passagesOnce<Q extends { passage: LearnerPassage | null }>(questions: readonly Q[]) {
  const passages = new Map<number, LearnerPassage>()
  const named = questions.map(({ passage, ...question }) => {
    if (passage) passages.set(passage.id, passage)
    return { ...question, passage_id: passage?.id ?? null }
  })
  return { passages: [...passages.values()], questions: named }
}
