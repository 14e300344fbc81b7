import { describe, expect, it } from 'vitest'
import { PAGE_LONG_SIDE, shrinkPhoto, shrunkSize } from './shrink-photo'

describe('shrinking a page photo on the phone', () => {
  it('brings the long side to 2,200 px, keeping the shape, and never enlarges', () => {
    expect(shrunkSize(4000, 3000)).toEqual({ width: PAGE_LONG_SIDE, height: 1650 })
    expect(shrunkSize(3024, 4032)).toEqual({ width: 1650, height: PAGE_LONG_SIDE })
    expect(shrunkSize(1200, 900)).toEqual({ width: 1200, height: 900 })
  })

  it('sends a photo the browser cannot decode as it is, for the server to judge', async () => {
    const file = new Blob(['not an image'], { type: 'image/heic' })
    expect(await shrinkPhoto(file)).toBe(file)
  })
})
