import { HALANT, NUKTA, SIGN_AA, SIGN_I, isConsonant, isDevanagari, isModifier, isVowelSign } from './devanagari'
import { kantipurOverrides, preetiKeys } from './preeti-map'

export type LegacyFont = 'preeti' | 'kantipur'

// ि and the reph are typed away from their Unicode place: private marks keep a ि or र् already in Unicode in place.
const SHORT_I_MARK = '\uE000'
const REPH_MARK = '\uE001'
const REPH = `र${HALANT}`

interface KeyMap {
  keys: ReadonlyMap<string, readonly string[]>
  longest: number
}

function keyMap(overrides: Readonly<Record<string, string>>): KeyMap {
  const glyphs: Record<string, string> = { ...preetiKeys, ...overrides, l: SHORT_I_MARK, '{': REPH_MARK }
  const keys = new Map(Object.entries(glyphs).map(([key, glyph]) => [key, [...glyph]]))
  return { keys, longest: Math.max(...[...keys.keys()].map((key) => key.length)) }
}

const maps: Record<LegacyFont, KeyMap> = {
  preeti: keyMap({}),
  kantipur: keyMap(kantipurOverrides),
}

function mapKeys(text: string, { keys, longest }: KeyMap, keepNumbers: boolean): string[] {
  const out: string[] = []
  for (let at = 0; at < text.length;) {
    if (keepNumbers && /[0-9]/.test(text[at]!) && (at === 0 || /[\s-]/.test(text[at - 1]!))) {
      ASCII_NUMBER.lastIndex = at
      const number = ASCII_NUMBER.exec(text)?.[0]
      if (number && number.replace(/[^0-9]/g, '').length > 1) {
        out.push(...number)
        at += number.length
        continue
      }
    }
    let length = Math.min(longest, text.length - at)
    while (length > 1 && !keys.has(text.slice(at, at + length))) length--
    const key = text.slice(at, at + length)
    for (const c of keys.get(key) ?? [key]) out.push(c)
    at += length
  }
  return out
}

// Preeti's digit keys type letters and no Nepali word is two of them alone: a typist who wrote one had switched fonts.
const ASCII_NUMBER = /[0-9]+(?:[.,:/][0-9]+)*%?(?=$|[\s_.,<])/y

function clusterEnd(chars: readonly string[], at: number): number {
  if (!isConsonant(chars[at])) return at
  let end = at + 1
  if (chars[end] === NUKTA) end++
  while (chars[end] === HALANT && isConsonant(chars[end + 1])) {
    end += 2
    if (chars[end] === NUKTA) end++
  }
  return end
}

function clusterStart(chars: readonly string[], end: number): number {
  let at = end - 1
  if (chars[at] === NUKTA) at--
  if (!isConsonant(chars[at])) return end
  while (chars[at - 1] === HALANT) {
    let previous = at - 2
    if (chars[previous] === NUKTA) previous--
    if (!isConsonant(chars[previous])) break
    at = previous
  }
  return at
}

function joinHalfFormsWithBar(chars: string[]): string[] {
  const out: string[] = []
  for (const c of chars) {
    if (c === SIGN_AA && out.at(-1) === HALANT) out.pop()
    else out.push(c)
  }
  return out
}

function placeShortI(chars: readonly string[]): string[] {
  const out: string[] = []
  for (let at = 0; at < chars.length; at++) {
    if (chars[at] !== SHORT_I_MARK) {
      out.push(chars[at]!)
      continue
    }
    const end = clusterEnd(chars, at + 1)
    out.push(...chars.slice(at + 1, end), SIGN_I)
    at = end - 1
  }
  return out
}

function placeReph(chars: readonly string[]): string[] {
  const out: string[] = []
  for (const c of chars) {
    if (c !== REPH_MARK) {
      out.push(c)
      continue
    }
    let end = out.length
    while (isVowelSign(out[end - 1]) || isModifier(out[end - 1])) end--
    out.splice(clusterStart(out, end), 0, ...REPH)
  }
  return out
}

function placeStrayVowelSigns(chars: readonly string[]): string[] {
  const out: string[] = []
  for (let at = 0; at < chars.length; at++) {
    const c = chars[at]!
    // Only a sign with no letter before it (start, space, punctuation) is out of place.
    const end = isVowelSign(c) && !isDevanagari(chars[at - 1]) ? clusterEnd(chars, at + 1) : at + 1
    if (end === at + 1) {
      out.push(c)
      continue
    }
    out.push(...chars.slice(at + 1, end), c)
    at = end - 1
  }
  return out
}

// In each run of signs the vowel signs come first, the nasal signs after, each in the order typed.
function placeModifiersLast(chars: readonly string[]): string[] {
  const out: string[] = []
  for (let at = 0; at < chars.length;) {
    if (!isModifier(chars[at])) {
      out.push(chars[at++]!)
      continue
    }
    const modifiers: string[] = []
    for (; isModifier(chars[at]) || isVowelSign(chars[at]); at++)
      (isModifier(chars[at]) ? modifiers : out).push(chars[at]!)
    out.push(...modifiers)
  }
  return out
}

const combined: ReadonlyArray<[string, string]> = [
  ['ाे', 'ो'],
  ['ेा', 'ो'],
  ['ाै', 'ौ'],
  ['ैा', 'ौ'],
  ['अा', 'आ'],
  ['आे', 'ओ'],
  ['आै', 'औ'],
  ['अो', 'ओ'],
  ['अौ', 'औ'],
  ['एे', 'ऐ'],
  ['््', '्'],
  ['।।', '॥'],
]

function combine(text: string): string {
  let out = text
  for (const [from, to] of combined) out = out.split(from).join(to)
  return out
}

const VISARGA = '\u0903'

// Preeti has no colon key, so typists put the visarga `M` where a colon goes (docs/legacy-fonts.md, rule 7).
function joinColonVisarga(text: string): string {
  return text.replace(/([\u0900-\u0963])([ \t]+\u0903)+(?![\u0900-\u097F])/g, (_match, before: string) =>
    before === VISARGA ? before : `${before}${VISARGA}`,
  )
}

export interface ConvertOptions {
  keepNumbers?: boolean
}

export function legacyToUnicode(text: string, font: LegacyFont, options: ConvertOptions = {}): string {
  let chars = mapKeys(text, maps[font], options.keepNumbers ?? false)
  chars = joinHalfFormsWithBar(chars)
  chars = placeShortI(chars)
  chars = placeReph(chars)
  chars = placeStrayVowelSigns(chars)
  chars = placeModifiersLast(chars)
  return joinColonVisarga(combine(chars.join('')).replace(/\u0903{2,}/g, VISARGA)).normalize('NFC')
}

const PASSING = new Set([
  '\u00A0',
  '\u2013',
  '\u2014',
  '\u2018',
  '\u2019',
  '\u201C',
  '\u201D',
  '\u2026',
  '\u00D7',
  '\u200C',
  '\u200D',
])
const isUnknownExtended = (c: string) => c > '\u007F' && !isDevanagari(c) && !PASSING.has(c) && !/\s/u.test(c)

export function malformedSigns(unicode: string): number {
  let count = 0
  const chars = [...unicode]
  for (let at = 0; at < chars.length; at++) {
    const c = chars[at]!
    const before = chars[at - 1]
    if (isVowelSign(c) || c === HALANT || c === NUKTA) {
      if (!isConsonant(before) && before !== NUKTA) count++
    } else if (isModifier(c)) {
      if (!(isConsonant(before) || isVowelSign(before) || isIndependentVowel(before) || before === NUKTA)) count++
    }
  }
  return count
}

const isIndependentVowel = (c: string | undefined) => c !== undefined && c >= '\u0904' && c <= '\u0914'

export interface CheckedConversion {
  unicode: string
  doubts: string[]
}

export function convertLegacy(text: string, font: LegacyFont, options: ConvertOptions = {}): CheckedConversion {
  const unicode = legacyToUnicode(text, font, options)
  const doubts: string[] = []
  const unknown = [...new Set([...unicode].filter(isUnknownExtended))]
  if (unknown.length > 0)
    doubts.push(
      `the characters ${unknown.map((c) => `"${c}"`).join(' ')} are no ${font === 'kantipur' ? 'Kantipur' : 'Preeti'} key we know`,
    )
  const malformed = malformedSigns(unicode)
  if (malformed > 0)
    doubts.push(
      `${malformed} vowel or other sign${malformed === 1 ? '' : 's'} stand${malformed === 1 ? 's' : ''} on no letter`,
    )
  // The hook `m` only makes a letter after प भ उ त्र त्त; anywhere else the typed text was not what the font shows.
  if (/(^|[^a-zA-Z])m|[\u0900-\u097F]m/u.test(unicode)) doubts.push('the key "m" stands on no letter it can complete')
  return { unicode, doubts }
}
