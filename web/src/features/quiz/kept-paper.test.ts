import { beforeEach, describe, expect, it } from 'vitest'
import { forgetAllAttempts, loadQuestion, saveQuestion, storedQuestionNumbers } from './attempt-store'
import { keepPaper } from './kept-paper'
import { ATTEMPT_ID, makeQuestion as question } from '../../test/quiz-fixtures'

beforeEach(() => forgetAllAttempts())

describe('keeping the paper on the device', () => {
  it('fetches only the questions not yet kept, a few at a time, and leaves failures for the next run', async () => {
    await saveQuestion(ATTEMPT_ID, 2, question(2))
    let inFlight = 0
    let most = 0
    const asked: number[] = []
    const fetchQuestion = async (number: number) => {
      asked.push(number)
      inFlight += 1
      most = Math.max(most, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight -= 1
      if (number === 7) throw new TypeError('Failed to fetch')
      await saveQuestion(ATTEMPT_ID, number, question(number))
    }
    const counts: number[] = []
    expect(await keepPaper(ATTEMPT_ID, 10, fetchQuestion, (count) => counts.push(count))).toBe(9)
    expect(asked.sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(most).toBe(4)
    expect(counts[0]).toBe(1)
    expect(counts.at(-1)).toBe(9)
    expect(await storedQuestionNumbers(ATTEMPT_ID)).not.toContain(7)

    asked.length = 0
    expect(await keepPaper(ATTEMPT_ID, 10, (number) => saveQuestion(ATTEMPT_ID, number, question(number)))).toBe(10)
    expect(await loadQuestion(ATTEMPT_ID, 7)).toEqual(question(7))
  })
})
