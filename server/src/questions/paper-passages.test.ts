import { describe, expect, it } from 'vitest'
import { passagesOnce } from './paper-passages'
import { chooseSizes } from './passage-draws'
import { shuffledKeepingPassages } from './passage-shuffle'

const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ')

describe('passages in a paper', () => {
  it('holds 10 passages of 300 words under 100 questions once each, its questions naming them', () => {
    const passages = Array.from({ length: 10 }, (_, p) => ({
      id: p + 1,
      text: { en: words(300), ne: '', html: null },
      image: null,
    }))
    const questions = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, passage: passages[Math.floor(i / 10)]! }))
    const once = passagesOnce(questions)
    expect(once.passages.map((passage) => passage.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(once.questions.every((question) => !('passage' in question))).toBe(true)
    expect(once.questions.map((question) => question.passage_id)).toEqual(
      questions.map((question) => question.passage.id),
    )
    const text = passages[0]!.text.en
    const json = JSON.stringify(once)
    expect(json.split(text).length - 1).toBe(10)
    // The paper grows by the passages' bytes, not ten times them.
    expect(json.length).toBeLessThan(JSON.stringify(questions).length / 5)
  })

  it('chooses whole passages that make exactly the count, earliest preferred, or none', () => {
    expect(chooseSizes([2, 3, 5], 5)).toEqual([0, 1])
    expect(chooseSizes([5, 2, 3], 5)).toEqual([0])
    expect(chooseSizes([2, 3], 4)).toBeNull()
    expect(chooseSizes([], 1)).toBeNull()
  })

  it('shuffles blocks: a passage’s questions stay together and in its order', () => {
    const passageOf = new Map([
      [11, { passageId: 1, position: 1 }],
      [12, { passageId: 1, position: 2 }],
      [13, { passageId: 1, position: 3 }],
    ])
    let seed = 0
    const orders = new Set<string>()
    for (let run = 0; run < 50; run++) {
      const order = shuffledKeepingPassages([1, 2, 13, 11, 12, 3], passageOf, (max) => seed++ % max)
      const at = order.indexOf(11)
      expect(order.slice(at, at + 3)).toEqual([11, 12, 13])
      orders.add(order.join(','))
    }
    expect(orders.size).toBeGreaterThan(1)
  })
})
