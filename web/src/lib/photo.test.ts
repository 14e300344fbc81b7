import { describe, expect, it } from 'vitest'
import { fittedSize, photoSize, shrinkPhoto, shrinkPhotos } from './photo'

describe('shrinking a photo on the phone', () => {
  it('brings the long side down to the size asked, keeping the shape', () => {
    // A written answer's page (2,200 px) and an answer sheet for the reader (3,000 px).
    expect(fittedSize(4000, 3000, 2200)).toEqual({ width: 2200, height: 1650 })
    expect(fittedSize(3024, 4032, 2200)).toEqual({ width: 1650, height: 2200 })
    expect(fittedSize(4032, 3024, 3000)).toEqual({ width: 3000, height: 2250 })
    expect(fittedSize(3024, 4032, 3000)).toEqual({ width: 2250, height: 3000 })
  })

  it('never enlarges a photo that fits', () => {
    expect(fittedSize(1200, 900, 2200)).toEqual({ width: 1200, height: 900 })
    expect(fittedSize(2000, 1500, 3000)).toEqual({ width: 2000, height: 1500 })
  })

  it('sends a photo the browser cannot decode as it is, for the server to judge', async () => {
    const file = new Blob(['not an image'], { type: 'image/heic' })
    expect(await shrinkPhoto(file, { longSide: 2200, redrawSmaller: true })).toBe(file)
    expect(await shrinkPhoto(file, { longSide: 3000 })).toBe(file)
    expect(await shrinkPhotos([file, file], { longSide: 2200 })).toEqual([file, file])
    expect(await photoSize(file)).toBeNull()
  })
})
