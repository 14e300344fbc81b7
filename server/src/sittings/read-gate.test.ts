import { describe, expect, it } from 'vitest'
import { createGate } from './read-gate'

describe('createGate', () => {
  it('runs at most `limit` pieces of work at once, the rest in order, and goes on after a failure', async () => {
    const run = createGate(2)
    let running = 0
    let most = 0
    const order: number[] = []
    const work = (n: number) => async () => {
      running++
      most = Math.max(most, running)
      await new Promise((resolve) => setTimeout(resolve, 5))
      running--
      order.push(n)
      if (n === 1) throw new Error('unreadable')
      return n
    }
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => run(work(n))))
    expect(most).toBe(2)
    expect(results.map((result) => result.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'])
    expect(order.slice(2)).toEqual([3, 4, 5])
    expect(await run(async () => 'after')).toBe('after')
  })
})
