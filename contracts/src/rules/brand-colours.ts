// An institute's colour on every screen (WEB.md "Institutes"): the header's background, with dark or light text on it,
// and the primary buttons and links, darkened only as far as 4.5:1 against the page and the soft tint needs. One rule for the server,
// which paints the first response in it, and the web app, whose settings screen previews it.

/** WCAG 2's minimum contrast for normal text. */
export const MIN_CONTRAST = 4.5

const DARK_TEXT = '#111827'
const LIGHT_TEXT = '#ffffff'
/** styles.css's `--bg`, a shade darker than white: links on it must read too. */
const PAGE = '#f5f7fb'

type Rgb = [number, number, number]

const toRgb = (hex: string): Rgb => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16)) as Rgb

const toHex = (rgb: Rgb) => `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`

/** WCAG 2's relative luminance of an sRGB colour. */
function luminance(hex: string) {
  const [r, g, b] = toRgb(hex).map((channel) => {
    const c = channel / 255
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2's contrast ratio of two colours, 1..21. */
export function contrastRatio(a: string, b: string) {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (light + 0.05) / (dark + 0.05)
}

/** `#rrggbb` mixed towards `toward` by `share` (0..1). */
const mix = (hex: string, toward: string, share: number) => {
  const [from, to] = [toRgb(hex), toRgb(toward)]
  return toHex(from.map((channel, i) => channel + (to[i]! - channel) * share) as Rgb)
}

/** The least darkening of `hex` that reads at `MIN_CONTRAST` against `background`: the colour itself when it does. */
function darkenedFor(hex: string, background: string) {
  if (contrastRatio(hex, background) >= MIN_CONTRAST) return hex
  let [low, high] = [0, 1]
  // Bisection on the share of black: contrast grows with it, and 20 halvings settle it well below one step of 255.
  for (let step = 0; step < 20; step++) {
    const middle = (low + high) / 2
    if (contrastRatio(mix(hex, '#000000', middle), background) >= MIN_CONTRAST) high = middle
    else low = middle
  }
  return mix(hex, '#000000', high)
}

export interface BrandPalette {
  /** The header's background: the institute's colour as chosen. */
  header: string
  /** White text on the header where it reads at 4.5:1, else dark. */
  header_text: string
  header_is_dark: boolean
  /** Buttons' background under white text, links and accents on white. */
  primary: string
  /** Hover and pressed states, and text on `primary_soft`. */
  primary_dark: string
  /** A tint for selected rows and badges. */
  primary_soft: string
  /**
   * The header's own wash under the active link and bell, opaque: lighter on a dark header, darker on a light one,
   * unless that breaks 4.5:1 for the header's text (white on #0f766e lightened by 18 % reads 4.2:1, and axe refused
   * the screens), then the other way, which only adds contrast.
   */
  header_tint: string
}

export const isBrandColour = (value: string) => /^#[0-9a-f]{6}$/i.test(value)

/** The colours the app paints with for an institute's `colour` (`#rrggbb`). */
export function brandPalette(colour: string): BrandPalette {
  const header = colour.toLowerCase()
  const headerIsDark = contrastRatio(header, LIGHT_TEXT) >= MIN_CONTRAST
  // Our near-black misses 4.5:1 on a few mid blues where white misses it too; pure black never does (4.58 at worst).
  const darkText = contrastRatio(header, DARK_TEXT) >= MIN_CONTRAST ? DARK_TEXT : '#000000'
  const primarySoft = mix(header, '#ffffff', 0.85)
  // Links and accents sit on the page and on the soft tint (a selected row, a badge): the tint is the darker of the two
  // for mid colours (#1f6feb's read 3.9:1 on it, and axe refused the screens).
  const primary = darkenedFor(darkenedFor(header, PAGE), primarySoft)
  const primaryDark = darkenedFor(mix(primary, '#000000', 0.3), primarySoft)
  const headerText = headerIsDark ? LIGHT_TEXT : darkText
  const usualTint = headerIsDark ? mix(header, '#ffffff', 0.18) : mix(header, '#000000', 0.08)
  const headerTint =
    contrastRatio(usualTint, headerText) >= MIN_CONTRAST
      ? usualTint
      : headerIsDark
        ? mix(header, '#000000', 0.25)
        : mix(header, '#ffffff', 0.3)
  return {
    header,
    header_text: headerText,
    header_is_dark: headerIsDark,
    primary,
    primary_dark: primaryDark,
    primary_soft: primarySoft,
    header_tint: headerTint,
  }
}

/** The palette as the stylesheet's custom properties (styles.css `:root`). */
export const paletteProperties = (palette: BrandPalette): Record<string, string> => ({
  '--header-bg': palette.header,
  '--header-text': palette.header_text,
  // The active link's wash, the switcher's border and the focus ring follow the header's lightness.
  '--header-tint': palette.header_tint,
  '--header-line': palette.header_is_dark ? 'rgb(255 255 255 / 0.4)' : 'rgb(0 0 0 / 0.35)',
  '--header-focus': palette.header_is_dark ? 'var(--focus-ring-on-dark)' : 'var(--focus-ring-on-light)',
  '--primary': palette.primary,
  '--primary-dark': palette.primary_dark,
  '--primary-soft': palette.primary_soft,
})

/**
 * The palette as a stylesheet rule for the page's head. `html:root` outranks the stylesheet's `:root`, which the app's
 * own code may add to the page after this rule.
 */
export const paletteStyle = (palette: BrandPalette) =>
  `html:root{${Object.entries(paletteProperties(palette))
    .map(([name, value]) => `${name}:${value}`)
    .join(';')}}`
