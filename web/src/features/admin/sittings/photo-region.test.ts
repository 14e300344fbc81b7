import { describe, expect, it } from 'vitest'
import { closeUp, cropAround, placeIn } from './photo-region'

describe('a flagged region of the photo', () => {
  it("shows a question's row with a row's height of paper around it, and a tall region with a little", () => {
    expect(cropAround({ x: 0.1, y: 0.3, width: 0.2, height: 0.02 })).toEqual({
      x: expect.closeTo(0.08),
      y: expect.closeTo(0.28),
      width: expect.closeTo(0.24),
      height: expect.closeTo(0.06),
    })
    const grid = cropAround({ x: 0.5, y: 0.1, width: 0.2, height: 0.2 })
    expect(grid.y).toBeCloseTo(0.075)
    expect(grid.height).toBeCloseTo(0.25)
  })

  it('keeps the close-up inside the photo at its edges', () => {
    const crop = cropAround({ x: 0.005, y: 0.97, width: 0.3, height: 0.03 })
    expect(crop.x).toBe(0)
    expect(crop.y + crop.height).toBeCloseTo(1)
    expect(crop.y).toBeCloseTo(0.945)
  })

  it('places a box over the whole photo or over a crop in percentages of it', () => {
    const box = { x: 0.25, y: 0.5, width: 0.5, height: 0.1 }
    expect(placeIn(box)).toEqual({ left: '25%', top: '50%', width: '50%', height: '10%' })
    expect(placeIn(box, { x: 0.2, y: 0.4, width: 0.6, height: 0.3 })).toEqual({
      left: '8.333%',
      top: '33.333%',
      width: '83.333%',
      height: '33.333%',
    })
  })

  it('shapes the close-up as the crop is in pixels, no taller than asked, and moves the photo under it', () => {
    const { frame, stage, photo } = closeUp(
      { x: 0.1, y: 0.2, width: 0.4, height: 0.1 },
      { width: 1500, height: 2000 },
      16,
    )
    // 600 x 200 pixels: three times as wide as high, so 16 rem high at most means 48 rem wide at most.
    expect(frame).toEqual({ aspectRatio: '600 / 200', width: 'min(100%, 48rem)' })
    expect(stage).toEqual({ width: '100%', height: '100%', transform: 'translate(-50%, -50%)' })
    expect(photo).toEqual({ left: '-25%', top: '-200%', width: '250%', height: '1000%' })
  })

  it('stands up the row of a sheet photographed sideways: the window turned, the stage turned back', () => {
    // The row is 40 px wide and 600 px high in the photo (the page lies a quarter turn clockwise).
    const { frame, stage, photo } = closeUp(
      { x: 0.5, y: 0.1, width: 0.02, height: 0.3 },
      { width: 2000, height: 2000 },
      16,
      90,
    )
    expect(frame).toEqual({ aspectRatio: '600 / 40', width: 'min(100%, 240rem)' })
    // The stage is the crop's shape (40 x 600), as shares of the 600 x 40 window, turned back a quarter.
    expect(stage).toEqual({ width: '6.667%', height: '1500%', transform: 'translate(-50%, -50%) rotate(-90deg)' })
    expect(photo).toEqual({ left: '-2500%', top: '-33.333%', width: '5000%', height: '333.333%' })
    expect(closeUp({ x: 0, y: 0, width: 0.5, height: 0.1 }, { width: 100, height: 100 }, 16, 180).stage).toEqual({
      width: '100%',
      height: '100%',
      transform: 'translate(-50%, -50%) rotate(-180deg)',
    })
  })
})
