import { createStore, entries, set } from 'idb-keyval'
import type { LearnerPassage, QuizQuestion } from '@quiz/contracts'
import { beforeEach, describe, expect, it } from 'vitest'
import { ATTEMPT_ID, makeQuestion, makeSession } from '../../test/quiz-fixtures'
import {
  forgetAllAttempts,
  loadQuestion,
  removeAttempt,
  saveAttempt,
  saveQuestion,
  saveQuestions,
  storedQuestionNumbers,
} from './attempt-store'

const USER_ID = 3
const rawStore = () => createStore('quiz-offline', 'attempts')
const words = (count: number) => Array.from({ length: count }, (_, index) => `word${index}`).join(' ')

function passage(id: number): LearnerPassage {
  return { id, text: { en: words(300), ne: words(300), html: null }, image: null }
}
const under = (number: number, passageId: number | null): QuizQuestion => ({
  ...makeQuestion(number),
  passage: passageId === null ? null : passage(passageId),
})

/** What the store holds, by kind of key. */
async function held() {
  const all = await entries<IDBValidKey[], unknown>(rawStore())
  const of = (kind: string) => all.filter(([key]) => key[0] === kind)
  return { questions: of('question'), passages: of('passage'), bytes: JSON.stringify(all).length }
}

beforeEach(() => forgetAllAttempts())

describe('the paper kept on the device', () => {
  it('keeps each passage once, its questions naming it, and gives every question back whole', async () => {
    // 100 questions, 10 passages of 10 questions each.
    const paper = Array.from({ length: 100 }, (_, index) => under(index + 1, Math.floor(index / 10) + 1))
    await saveQuestions(ATTEMPT_ID, paper.slice(0, 50))
    for (const question of paper.slice(50)) await saveQuestion(ATTEMPT_ID, question.number, question)

    const { questions, passages, bytes } = await held()
    expect(questions).toHaveLength(100)
    expect(passages.map(([key]) => key[2]).sort((a, b) => Number(a) - Number(b))).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ])
    expect(questions.every(([, value]) => !Object.hasOwn(value as object, 'passage'))).toBe(true)
    // The passages' bytes once (10 × ~4.5 KB), not a hundred times.
    expect(bytes).toBeLessThan(
      10 * JSON.stringify(passage(1)).length + 100 * JSON.stringify(makeQuestion(2)).length * 1.2,
    )
    expect(await loadQuestion(ATTEMPT_ID, 37)).toEqual(paper[36])
    expect(await loadQuestion(ATTEMPT_ID, 100)).toEqual(paper[99])
  })

  it('keeps questions without a passage as before', async () => {
    await saveQuestion(ATTEMPT_ID, 1, makeQuestion(1))
    expect(await loadQuestion(ATTEMPT_ID, 1)).toEqual(makeQuestion(1))
    expect((await held()).passages).toHaveLength(0)
  })

  it('reads a question kept in the older shape (passage inside) and rewrites it with its passage once', async () => {
    await set(['question', ATTEMPT_ID, 1], under(1, 5), rawStore())
    await set(['question', ATTEMPT_ID, 2], under(2, 5), rawStore())
    await set(['question', ATTEMPT_ID, 3], makeQuestion(3), rawStore())

    expect(await loadQuestion(ATTEMPT_ID, 1)).toEqual(under(1, 5))
    expect(await loadQuestion(ATTEMPT_ID, 2)).toEqual(under(2, 5))
    expect(await loadQuestion(ATTEMPT_ID, 3)).toEqual(makeQuestion(3))
    const { questions, passages } = await held()
    expect(passages).toHaveLength(1)
    expect(questions.filter(([, value]) => Object.hasOwn(value as object, 'passage_id'))).toHaveLength(2)
    expect(await loadQuestion(ATTEMPT_ID, 1)).toEqual(under(1, 5))
  })

  it('gives no question whose passage is missing, so it is fetched again', async () => {
    const { passage: _passage, ...question } = under(4, 9)
    await set(['question', ATTEMPT_ID, 4], { ...question, passage_id: 9 }, rawStore())
    expect(await loadQuestion(ATTEMPT_ID, 4)).toBeUndefined()
    await saveQuestion(ATTEMPT_ID, 4, under(4, 9))
    expect(await loadQuestion(ATTEMPT_ID, 4)).toEqual(under(4, 9))
  })

  it("removes an attempt's passages with its questions, and only its own", async () => {
    await saveAttempt(USER_ID, 7, makeSession())
    await saveQuestion(ATTEMPT_ID, 1, under(1, 5))
    await saveQuestion(43, 1, under(1, 5))
    await removeAttempt(USER_ID, 7, ATTEMPT_ID)
    expect(await storedQuestionNumbers(ATTEMPT_ID)).toEqual(new Set())
    const { passages } = await held()
    expect(passages.map(([key]) => key[1])).toEqual([43])
  })
})
