import { describe, expect, it } from 'vitest'
import { inParts } from './in-parts'

describe('inParts', () => {
  it('cuts a list into consecutive parts of 500, the last one shorter', () => {
    const ids = Array.from({ length: 1001 }, (_, index) => index + 1)
    const parts = inParts(ids)
    expect(parts.map((part) => part.length)).toEqual([500, 500, 1])
    expect(parts.flat()).toEqual(ids)
  })

  it('makes no part of an empty list (no query with an empty `in`)', () => {
    expect(inParts([])).toEqual([])
  })
})
