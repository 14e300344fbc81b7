import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// WCAG 2.2 SC 1.4.11 and 2.4.13 (decision 050): a focus ring contrasts at least 3:1 with what it is drawn on.
// Read from the stylesheets themselves, so a colour changed there is checked here.
const src = join(import.meta.dirname, '..', '..')
const stylesheets = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.css'))
  .map((file) => readFileSync(join(src, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, ''))

interface Rule {
  selector: string
  declarations: Map<string, string>
}

// Innermost blocks only: a rule inside @media is read as its own rule, the @media line dropped.
const rules: Rule[] = stylesheets.flatMap((css) =>
  Array.from(css.matchAll(/([^{}]+)\{([^{}]*)\}/g), ([, selector, body]) => ({
    selector: selector!.trim(),
    declarations: new Map(
      body!
        .split(';')
        .map((line) => line.split(/:(.*)/s).map((part) => part.trim()))
        .filter((pair): pair is [string, string] => pair.length >= 2 && pair[0] !== '')
        .map(([property, value]) => [property, value]),
    ),
  })),
)

const selectors = (rule: Rule) => rule.selector.split(',').map((selector) => selector.trim())
const rulesFor = (selector: string) => rules.filter((rule) => selectors(rule).includes(selector))
const root = new Map(rulesFor(':root').flatMap((rule) => [...rule.declarations]))

function colour(value: string): string {
  const variable = /^var\((--[\w-]+)\)$/.exec(value)
  if (variable) {
    const defined = root.get(variable[1]!)
    if (defined === undefined) throw new Error(`${variable[1]} is not defined in :root`)
    return colour(defined)
  }
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value)
  if (short) return `#${short[1]!.repeat(2)}${short[2]!.repeat(2)}${short[3]!.repeat(2)}`
  if (/^#[0-9a-f]{6}$/i.test(value)) return value
  throw new Error(`not an opaque colour this test reads: ${value}`)
}

// WCAG 2.x relative luminance and contrast ratio.
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = parseInt(hex.slice(at, at + 2), 16) / 255
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

describe('focus rings (WCAG 1.4.11, 2.4.13)', () => {
  it('draws the ring outside a control, on what is around it, not on the control itself', () => {
    const ring = rulesFor(':focus-visible')[0]!.declarations
    expect(ring.get('outline')).toBe('3px solid var(--focus-ring)')
    expect(parseFloat(ring.get('outline-offset')!)).toBeGreaterThan(0)
    expect(root.get('--focus-ring')).toBe('var(--focus-ring-on-light)')
  })

  // A filled (primary) button's ring is offset outside it, so it lies on the page or a card, checked here.
  it.each(['--bg', '--surface', '--primary-soft', '--success-soft', '--danger-soft', '--warning-soft', '--gray-soft'])(
    'the ring for light backgrounds is at least 3:1 on %s',
    (background) => {
      expect(contrast(colour('var(--focus-ring-on-light)'), colour(`var(${background})`))).toBeGreaterThanOrEqual(3)
    },
  )

  // :root's ring is the one for light backgrounds, checked above.
  const settingRing = rules.filter((rule) => rule.selector !== ':root' && rule.declarations.has('--focus-ring'))

  it('finds the containers and controls that choose their ring', () => {
    expect(settingRing.map((rule) => rule.selector)).toEqual(
      expect.arrayContaining(['.top-nav', ".language-toggle button[aria-pressed='true']:focus-visible"]),
    )
  })

  // A rule choosing the ring draws it on its own background: a container's (the navigation bar's), or, for a
  // control's `:focus-visible` whose ring is drawn inside it (the joined toggle buttons), the control's own.
  it.each(settingRing.map((rule) => [rule.selector, rule] as const))(
    '%s: the ring is at least 3:1 on its background',
    (_, rule) => {
      const control = rule.selector.endsWith(':focus-visible')
        ? rulesFor(rule.selector.replace(/:focus-visible$/, ''))
        : []
      const background = [rule, ...control]
        .map((candidate) => candidate.declarations.get('background'))
        .find((value) => value !== undefined)
      expect(background, `${rule.selector} draws its ring on no background this test can find`).toBeDefined()
      expect(contrast(colour(rule.declarations.get('--focus-ring')!), colour(background!))).toBeGreaterThanOrEqual(3)
    },
  )

  it('has one, light, theme: a dark one would need its own rings checked here', () => {
    expect(root.get('color-scheme')).toBe('light')
    expect(stylesheets.some((css) => css.includes('prefers-color-scheme'))).toBe(false)
  })
})
