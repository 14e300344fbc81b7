import { brandPalette, contrastRatio, MIN_CONTRAST } from '@quiz/contracts/rules/brand-colours'
import { describe, expect, it } from 'vitest'

// Every colour of a 16-level grid per channel (4,096), from black to white: whatever an admin picks.
const grid = Array.from({ length: 16 ** 3 }, (_, n) =>
  [n >> 8, (n >> 4) & 15, n & 15].reduce((hex, level) => hex + (level * 17).toString(16).padStart(2, '0'), '#'),
)

describe('an institute colour on the screens', () => {
  it('keeps 4.5:1 for the header text, links and buttons and the soft tint, whatever colour is chosen', () => {
    for (const colour of grid) {
      const palette = brandPalette(colour)
      expect(palette.header).toBe(colour)
      expect(contrastRatio(palette.header, palette.header_text), colour).toBeGreaterThanOrEqual(MIN_CONTRAST)
      expect(contrastRatio(palette.primary, '#ffffff'), colour).toBeGreaterThanOrEqual(MIN_CONTRAST)
      expect(contrastRatio(palette.primary, '#f5f7fb'), colour).toBeGreaterThanOrEqual(MIN_CONTRAST)
      expect(contrastRatio(palette.primary, palette.primary_soft), colour).toBeGreaterThanOrEqual(MIN_CONTRAST)
      expect(contrastRatio(palette.primary_dark, palette.primary_soft), colour).toBeGreaterThanOrEqual(MIN_CONTRAST)
      // The active link's wash on the header (found by axe on #0f766e in e2e/institutes.e2e.ts).
      expect(contrastRatio(palette.header_tint, palette.header_text), colour).toBeGreaterThanOrEqual(MIN_CONTRAST)
      expect(palette.header_tint, colour).not.toBe(palette.header)
    }
  })

  it('leaves a colour that already reads as it is, and darkens another only as far as needed', () => {
    expect(brandPalette('#1d4ed8').primary).toBe('#1d4ed8')
    expect(brandPalette('#7C2D12').primary).toBe('#7c2d12')
    const yellow = brandPalette('#facc15')
    expect(yellow.header_text).toBe('#111827')
    expect(yellow.header_is_dark).toBe(false)
    // Just past the line: a little lighter would not read.
    expect(contrastRatio(yellow.primary, '#f5f7fb')).toBeLessThan(MIN_CONTRAST + 0.1)
    // A dark teal: white reads on it, not on it lightened; the wash darkens instead.
    const teal = brandPalette('#0f766e')
    expect(contrastRatio(teal.header_tint, '#ffffff')).toBeGreaterThan(contrastRatio(teal.header, '#ffffff'))
    const navy = brandPalette('#1e3a8a')
    expect([navy.header_text, navy.header_is_dark]).toEqual(['#ffffff', true])
  })

  it('measures contrast as WCAG 2 does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1)
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
  })
})
