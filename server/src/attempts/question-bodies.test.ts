import { describe, expect, it } from 'vitest'
import type { PaperQuestion } from '../questions/question-papers'
import { createQuestionBodies } from './question-bodies'

// A question as the paper cache holds it; only its learner view is written.
const question = (id: number, text = 'x'.repeat(100)) => ({ learner: { id, text } }) as unknown as PaperQuestion
const write = (data: unknown) => JSON.stringify(data)

describe('question bodies written once', () => {
  it('gives the same body for a question at the same place, another at another place', () => {
    const bodyOf = createQuestionBodies()
    const first = question(1)
    const body = bodyOf(first, 3)
    expect(bodyOf(first, 3)).toBe(body)
    expect(body.jsonBy(write)).toBe(write({ id: 1, text: 'x'.repeat(100), number: 3 }))
    expect(bodyOf(first, 4)).not.toBe(body)
    expect(bodyOf(first, 4).value.number).toBe(4)
  })

  it('keeps the most recently fetched within its budget of characters, letting go of the oldest', () => {
    // Each body is about 130 characters: three fit in 400.
    const bodyOf = createQuestionBodies({ maxChars: 400 })
    const shared = question(1)
    const kept = bodyOf(shared, 1)
    kept.jsonBy(write)
    const others = [2, 3, 4, 5].map((id) => question(id))
    const firstBodies = others.map((other) => {
      const body = bodyOf(other, 1)
      body.jsonBy(write)
      // The shared paper's question is fetched between the others, as its learners keep fetching it.
      expect(bodyOf(shared, 1)).toBe(kept)
      return body
    })
    // The latest two others stay beside the shared one; the two oldest went, and are written again if fetched.
    expect(bodyOf(others[3]!, 1)).toBe(firstBodies[3])
    expect(bodyOf(others[2]!, 1)).toBe(firstBodies[2])
    expect(bodyOf(others[0]!, 1)).not.toBe(firstBodies[0])
    expect(bodyOf(shared, 1)).toBe(kept)
  })

  it('keeps a body larger than the whole budget while it is the latest', () => {
    const bodyOf = createQuestionBodies({ maxChars: 10 })
    const large = question(1, 'y'.repeat(1_000))
    const body = bodyOf(large, 1)
    body.jsonBy(write)
    expect(bodyOf(large, 1)).toBe(body)
    bodyOf(question(2), 1).jsonBy(write)
    expect(bodyOf(large, 1)).not.toBe(body)
  })
})
