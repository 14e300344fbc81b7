import { beforeEach, describe, expect, it } from 'vitest'
import { forgetAllAttempts, loadQuestion, saveQuestion, storedQuestionNumbers } from './attempt-store'
import { keepPaper, picturesOf } from './kept-paper'
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
    expect(await keepPaper(ATTEMPT_ID, 10, fetchQuestion, { onKept: (count) => counts.push(count) })).toBe(9)
    expect(asked.sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(most).toBe(4)
    expect(counts[0]).toBe(1)
    expect(counts.at(-1)).toBe(9)
    expect(await storedQuestionNumbers(ATTEMPT_ID)).not.toContain(7)

    asked.length = 0
    expect(await keepPaper(ATTEMPT_ID, 10, (number) => saveQuestion(ATTEMPT_ID, number, question(number)))).toBe(10)
    expect(await loadQuestion(ATTEMPT_ID, 7)).toEqual(question(7))
  })

  it("fetches every question's pictures with it, and again for questions kept before, and retries failures", async () => {
    const url = (c: string) => `/api/pictures/${c.repeat(64)}.webp`
    const withPictures = (number: number) => {
      const plain = question(number)
      return {
        ...plain,
        image: { svg: null, picture: { url: url(String(number)), width: 10, height: 10 }, caption: plain.text },
        options: plain.options.map((option, index) =>
          index === 0
            ? { ...option, image: { svg: null, picture: { url: url('f'), width: 5, height: 5 }, caption: plain.text } }
            : option,
        ),
      }
    }
    expect(picturesOf(withPictures(1))).toEqual([url('1'), url('f')])
    await saveQuestion(ATTEMPT_ID, 1, withPictures(1))
    const fetched: string[] = []
    const fetchPicture = async (address: string) => {
      fetched.push(address)
      if (address === url('3')) throw new TypeError('Failed to fetch')
    }
    const fetchQuestion = async (number: number) => {
      await saveQuestion(ATTEMPT_ID, number, withPictures(number))
      return withPictures(number)
    }
    // Question 3 is on the device but one of its pictures is not: the paper is not whole yet.
    expect(await keepPaper(ATTEMPT_ID, 3, fetchQuestion, { fetchPicture })).toBe(2)
    expect([...new Set(fetched)].sort()).toEqual([url('1'), url('2'), url('3'), url('f')].sort())
    expect(await storedQuestionNumbers(ATTEMPT_ID)).toEqual(new Set([1, 2, 3]))

    fetched.length = 0
    expect(
      await keepPaper(ATTEMPT_ID, 3, fetchQuestion, { fetchPicture: async (address) => void fetched.push(address) }),
    ).toBe(3)
    expect(fetched).toContain(url('3'))
  })

  it('asks for nothing more once the exam screen has closed', async () => {
    const closed = new AbortController()
    const asked: number[] = []
    const fetchQuestion = async (number: number) => {
      asked.push(number)
      if (number === 2) closed.abort()
      await saveQuestion(ATTEMPT_ID, number, question(number))
    }
    // At most the four asked together (four at a time) went out, none after them; none counts as whole, as the screen
    // closed before any was through.
    expect(await keepPaper(ATTEMPT_ID, 10, fetchQuestion, { signal: closed.signal })).toBe(0)
    expect(asked).toContain(2)
    expect(Math.max(...asked)).toBeLessThanOrEqual(4)
  })
})
