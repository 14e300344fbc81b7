import { describe, expect, it } from 'vitest'
import { scoreAnswers, scoreBySection, toScore } from './scoring'

const questions = [1, 2, 3, 4, 5].map((questionId) => ({ questionId, correctOptionId: questionId * 10 }))

describe('scoreAnswers', () => {
  it('gives +1 per correct answer, -0.2 per wrong one and 0 per unanswered question', () => {
    const answers = new Map([
      [1, 10],
      [2, 20],
      [3, 99],
      [4, null],
    ])
    expect(scoreAnswers(questions, answers)).toEqual({
      score_hundredths: 180,
      correct: 2,
      incorrect: 1,
      unanswered: 2,
      total_questions: 5,
    })
  })

  it('scores an empty answer sheet as zero with every question unanswered', () => {
    expect(scoreAnswers(questions, new Map())).toEqual({
      score_hundredths: 0,
      correct: 0,
      incorrect: 0,
      unanswered: 5,
      total_questions: 5,
    })
  })

  it('lets the score go negative when every answer is wrong', () => {
    const answers = new Map(questions.map((q) => [q.questionId, 1]))
    expect(scoreAnswers(questions, answers).score_hundredths).toBe(-100)
    expect(toScore(-100)).toBe(-1)
  })

  it('ignores answers to questions that are not on the paper', () => {
    const answers = new Map([
      [1, 10],
      [42, 7],
    ])
    expect(scoreAnswers(questions, answers)).toMatchObject({ correct: 1, incorrect: 0, unanswered: 4 })
  })

  it('counts an answer as wrong when the question has no correct option', () => {
    expect(scoreAnswers([{ questionId: 1, correctOptionId: null }], new Map([[1, 5]]))).toMatchObject({
      incorrect: 1,
      score_hundredths: -20,
    })
  })
})

describe('scoreBySection', () => {
  const section = (count: number, marksCorrect: number, marksWrong: number) => ({
    title_en: '',
    title_ne: '',
    marks_correct: marksCorrect,
    marks_wrong: marksWrong,
    time_limit_minutes: null,
    count,
  })

  it('scores each place with its section marks, past an empty section, the places beyond the counts in the last', () => {
    // Places 1-2 are the first section's (2 / 0.4); the second has none; places 3-4 are the third's (1 / 0.25),
    // and so is place 5, beyond the counts.
    const sections = [section(2, 200, 40), section(0, 500, 500), section(2, 100, 25)]
    const answers = new Map([
      [1, 10],
      [2, 99],
      [3, 30],
      [4, 99],
      [5, 99],
    ])
    const { sections: tallies, ...score } = scoreBySection(questions, answers, sections)
    expect(tallies.map((tally) => [tally.score_hundredths, tally.correct, tally.incorrect])).toEqual([
      [160, 1, 1],
      [0, 0, 0],
      [50, 1, 2],
    ])
    expect(score).toEqual({ score_hundredths: 210, correct: 2, incorrect: 3, unanswered: 0, total_questions: 5 })
  })
})

describe('toScore', () => {
  it('is exact to 2 decimals where floating-point sums drift', () => {
    // 3 correct and 2 wrong: 3 - 0.2 - 0.2 in floating point is 2.5999999999999996.
    expect(3 - 0.2 - 0.2).not.toBe(2.6)
    const score = scoreAnswers(
      questions,
      new Map([
        [1, 10],
        [2, 20],
        [3, 30],
        [4, 1],
        [5, 1],
      ]),
    )
    expect(toScore(score.score_hundredths)).toBe(2.6)
    expect(JSON.stringify(toScore(score.score_hundredths))).toBe('2.6')
  })

  it('prints every reachable score of a 500-question quiz with at most 2 decimals', () => {
    for (let correct = 0; correct <= 500; correct += 7) {
      for (let incorrect = 0; correct + incorrect <= 500; incorrect += 13) {
        const text = JSON.stringify(toScore(correct * 100 - incorrect * 20))
        expect(text).toMatch(/^-?\d+(\.\d{1,2})?$/)
      }
    }
  })
})
