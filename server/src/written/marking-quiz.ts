import type { Kysely } from 'kysely'
import type { DB } from '../db/schema'
import { NotFound } from '../http/errors'
import { countAnswersByQuestion, findQuiz, listPaperQuestions } from './marking.repository'

export const notFound = () => new NotFound('Not found.')

/** The quiz's written questions, in paper order (questions only drawn come after, by id). */
export async function writtenQuestionsOf(db: Kysely<DB>, quizId: number, now: number) {
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

export async function quizExists(db: Kysely<DB>, quizId: number, { lock = false } = {}) {
  const quiz = await findQuiz(db, quizId, { lock })
  if (!quiz) throw notFound()
  return quiz
}
