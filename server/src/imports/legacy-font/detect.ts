import { legacyToUnicode, malformedSigns } from './convert'
import { hasDevanagari } from './devanagari'

// How Preeti text is told from English, and why these signs: docs/legacy-fonts.md "Detection".

const LETTER = /[A-Za-z]/

function hasLegacySign(word: string): boolean {
  // Where brackets open first and close last, so that each sign is judged in constant time, however long the word.
  const firstSquare = word.indexOf('[')
  const firstCurly = word.indexOf('{')
  const lastSquare = word.lastIndexOf(']')
  const lastCurly = word.lastIndexOf('}')
  const opened = (first: number, at: number) => first !== -1 && first < at
  for (let at = 0; at < word.length; at++) {
    const letterBefore = LETTER.test(word[at - 1] ?? '')
    const letterAfter = LETTER.test(word[at + 1] ?? '')
    switch (word[at]) {
      // English closes the brackets it opens ("[sic]", "a[i]"); Preeti's `]` and `}` close nothing.
      case ']':
        if ((letterBefore || letterAfter) && !opened(firstSquare, at)) return true
        break
      case '}':
        if ((letterBefore || letterAfter) && !opened(firstCurly, at)) return true
        break
      case '[':
        if (letterBefore && lastSquare < at) return true
        break
      case '{':
        if (letterBefore && lastCurly < at) return true
        break
      // After a consonant key, which is small or a digit (`k|` प्र, `g\` न्, `6\` ट्); `A|B` is English.
      case '|':
      case '\\':
        if (/[a-z0-9]/.test(word[at - 1] ?? '')) return true
    }
  }
  return false
}

const englishStartingLConsonant = new Set(['lb', 'lbs', 'ltd', 'lm', 'lx', 'lt', 'lng', 'lpg', 'lcd', 'led'])

function hasLegacyMark(word: string): boolean {
  return (
    // Rule 3 of docs/legacy-fonts.md "Detection", sign by sign in its order.
    /^[;:][A-Za-z'"/]/.test(word) ||
    /[A-Za-z'"];[A-Za-z+\]}'":/]/.test(word) ||
    /^\/[A-Za-z]|[A-Za-z0-9'"]\/$|\/['"]/.test(word) ||
    /[A-Za-z]'[abcefghijknopqruwxyzABCEFGHIJKNOPQUWXYZ;/:]|[A-Za-z]"[A-Za-z;/:]/.test(word) ||
    (/^l[bcdfghjkmnpqrstvwxzBCDFGHJKLMNPQRSTVWXZ:;/|']/.test(word) &&
      !englishStartingLConsonant.has(word.replace(/[^A-Za-z]/g, '').toLowerCase()))
  )
}

function hasLegacyHint(word: string): boolean {
  const letters = word.replace(/[^A-Za-z]/g, '')
  return (
    // Rule 4 of docs/legacy-fonts.md "Detection", in its order.
    (/[a-z]\/[a-z]/.test(word) && word.includes('f')) ||
    /[a-z][LF]/.test(word) ||
    hasInnerHalfForm(word) ||
    /[a-z][0-9]/.test(word) ||
    /[bcdghjkmnpqrstvwxz]f$/.test(letters) ||
    word.split(/[^A-Za-z]+/).some(isVowellessRun)
  )
}

// English capitals inside a word: `mRNA`, `JavaScript`, `McDonald`, `iPhone`.
function hasInnerHalfForm(word: string): boolean {
  for (const match of word.matchAll(/[a-z][A-Z](?=[bcdfghjklmnopqrstvwxz0-9;/'"\]}{|\\])/g)) {
    const before = word.slice(Math.max(0, match.index - 11), match.index + 1).replace(/^.*[^A-Za-z]/, '')
    if (before.includes('f') || /^[a-z]+$/.test(before)) return true
  }
  return false
}

const englishWithoutVowels = new Set(
  'nth pdf www mph kph kwh khz mhz ghz hmm psst shh tsk brr lbs ltd csv xlsx svg png jpg gif sql'.split(' '),
)

function isVowellessRun(run: string): boolean {
  return run.length >= 3 && !/[^a-z]/.test(run) && !/[aeiouy]/.test(run) && !englishWithoutVowels.has(run)
}

// "of" is left out: Preeti's `of` is the Nepali या.
const englishWords = new Set(
  (
    'the and to in is are was were be been for on that with as by at which what who whom whose how when where why ' +
    'this these those an it its from or not no yes has have had will would can could does do did if then than all ' +
    'any each one two there their they he she his her we you your our about into only also most many much more'
  ).split(' '),
)

/** What English puts around a word; not `;` before one (`;do` is Preeti's समय) nor `]` or `}` after one. */
const EDGE_PUNCTUATION = /^["'(]+|[.,!?:;"')]+$/g

/** A web or mail address, or an abbreviation with inner dots (`psc.gov.np`, `e.g.`): Preeti puts । after a space. */
const looksLikeAddress = (word: string) => /:\/\/|^www\.|[A-Za-z]@[A-Za-z]|[A-Za-z]\.[A-Za-z]/.test(word)

/** Text without letters: Preeti's digit keys (`!))` १००, `@)&@` २०७२) or its signs (`;'/'` सुरु, `/` र). */
const PREETI_WITHOUT_LETTERS = /^[\s)!@#$%^&*(,.=;:'"/[\]{}|\\+<>?_-]+$/
const PREETI_KEY_WITHOUT_LETTER = /[!@#$%^&*;:'"/[\]{}|\\+>]/

// `strong` on signs or marks English never types, `weak` on hints alone (docs/decisions/044).
export type LegacyEvidence = 'strong' | 'weak' | null

export function legacyEvidence(text: string): LegacyEvidence {
  if (hasDevanagari(text)) return null
  const letters = text.match(/[A-Za-z]/g) ?? []
  if (letters.length === 0)
    return PREETI_WITHOUT_LETTERS.test(text) && PREETI_KEY_WITHOUT_LETTER.test(text) ? 'strong' : null

  const words = text.split(/\s+/).filter((word) => LETTER.test(word) || PREETI_KEY_WITHOUT_LETTER.test(word))
  const english = words.filter(
    (word) => englishWords.has(word.replace(EDGE_PUNCTUATION, '').toLowerCase()) || looksLikeAddress(word),
  ).length
  if (english * 5 >= words.length) return null

  const vowels = letters.filter((c) => /[aeiouAEIOU]/.test(c)).length / letters.length
  const signed = words.filter(hasLegacySign).length
  if (signed * 4 >= words.length) return 'strong'
  const marked = words.filter((word) => hasLegacySign(word) || hasLegacyMark(word)).length
  if (marked * 2 >= words.length && vowels <= 0.5) return 'strong'
  const hinted = words.filter((word) => hasLegacySign(word) || hasLegacyMark(word) || hasLegacyHint(word)).length
  return hinted * 2 >= words.length && vowels < 0.35 ? 'weak' : null
}

export function readsAsLegacy(text: string): boolean {
  return legacyEvidence(text) !== null
}

// Preeti types `\` as the halant, `$` as ४ and `&` as ७, so each test looks for what Preeti never makes of them.

/** TeX commands: `\` and a command name Preeti's halant + letters do not spell in Nepali. */
const TEX_COMMAND =
  /\\(?:frac|dfrac|sqrt|ce|pu|times|div|cdot|pm|mp|le|leq|ge|geq|ne|neq|approx|equiv|alpha|beta|gamma|delta|theta|lambda|mu|pi|sigma|omega|Delta|Omega|sum|prod|int|lim|infty|log|ln|sin|cos|tan|text|mathrm|mathbf|left|right|rightarrow|leftarrow|to|circ|degree|angle|triangle|overline|vec|hat|begin|end|quad|displaystyle)(?![A-Za-z])/
// No space at its ends: Preeti's `$ jif{ $` is ४ वर्ष ४.
const looksLikeFormula = (inner: string) =>
  inner !== '' &&
  !/^\s|\s$/.test(inner) &&
  (/[\\^_=<>+]/.test(inner) || /^[A-Za-z]\d?$/.test(inner) || /^-?\d+(?:\.\d+)?$/.test(inner))

const paired = (text: string, open: string, close: string) => {
  const at = text.indexOf(open)
  return at >= 0 && text.indexOf(close, at + open.length) >= 0
}

// Linear in the text's length.
export function holdsTex(text: string): boolean {
  if (TEX_COMMAND.test(text) || paired(text, '\\(', '\\)') || paired(text, '\\[', '\\]')) return true
  if (
    text.includes('$$') &&
    text.split('$$').some((inner, index, all) => index % 2 === 1 && index < all.length - 1 && looksLikeFormula(inner))
  )
    return true
  const parts = text.split('$')
  for (let index = 1; index < parts.length - 1; index += 2) if (looksLikeFormula(parts[index]!)) return true
  return false
}

// `&&` is also ७७ and `--` ((, so Preeti's signs can outweigh them; Preeti's `!=` (१.) and `->L` are not matched.
const OPERATORS = /(?:^|[\s\w)])(?:&&|\|\||===?|!==|=>|::|\+\+|--)(?:$|[\s\w(])/
const MARKUP = new RegExp(
  [
    /<\/?[a-z][a-z0-9]{0,20}(?:\s[^<>]{0,200})?>|\b[A-Za-z_]\w*\(\)/.source,
    /^\s*(?:#include|import|def|function|class|SELECT|select|>>>)\s/.source,
    /\b0x[0-9a-fA-F]{2,}\b|[A-Za-z_]\w*\(["']|^\s*```/.source,
    /(?:^|[\s{,])["'][\w/.-]+["']\s*:\s/.source,
    /\]\((?:#|https?:|\.{0,2}\/|[\w-]+\/)/.source,
  ].join('|'),
  'm',
)

export const holdsCode = (text: string) => OPERATORS.test(text) || MARKUP.test(text)

/** A number, a list of numbers or a date in ASCII digits: never converted (Preeti's numbers are the shifted keys). */
export const isPlainNumber = (text: string) => /^[\s\d.,:;/%+\-×x*()=<>]*\d[\s\d.,:;/%+\-×x*()=<>]*$/.test(text)

const ELEMENT =
  'H|He|Li|Be|B|C|N|O|F|Ne|Na|Mg|Al|Si|P|S|Cl|Ar|K|Ca|Sc|Ti|V|Cr|Mn|Fe|Co|Ni|Cu|Zn|Ga|Ge|As|Se|Br|Kr|Rb|Sr|Y|Zr|' +
  'Nb|Mo|Tc|Ru|Rh|Pd|Ag|Cd|In|Sn|Sb|Te|I|Xe|Cs|Ba|La|Ce|Nd|Sm|Eu|Gd|W|Pt|Au|Hg|Tl|Pb|Bi|Po|At|Rn|Ra|U|Pu'
const FORMULA_WORD = new RegExp(`^\\d*(?:(?:${ELEMENT})\\d*|\\((?:(?:${ELEMENT})\\d*)+\\)\\d*)+$`)

// A digit or two symbols at least: Preeti's `Ps` (एक) is no formula, `s` being no element.
export function isChemicalFormula(text: string): boolean {
  const words = text
    .trim()
    .split(/[\s+=→-]+/)
    .filter(Boolean)
  return (
    words.length > 0 &&
    words.every((word) => FORMULA_WORD.test(word) && (/\d/.test(word) || (word.match(/[A-Z]/g) ?? []).length > 1))
  )
}

export const mayBeLegacy = (text: string) =>
  text.trim() !== '' &&
  !hasDevanagari(text) &&
  !holdsTex(text) &&
  !holdsCode(text) &&
  !isPlainNumber(text) &&
  !isChemicalFormula(text)

export function readsAsEnglish(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => LETTER.test(word))
  if (words.length === 0 || words.some(hasLegacySign)) return false
  if (words.every((word) => /^[A-Z]{2,}s?$/.test(word.replace(EDGE_PUNCTUATION, '')))) return true
  const english = words.filter((word) => englishWords.has(word.replace(EDGE_PUNCTUATION, '').toLowerCase())).length
  return english * 5 >= words.length
}

export interface QuestionDecision {
  legacy: boolean
  doubts: string[]
}

// One decision for a question's text and options together: docs/decisions/044.
export function decideQuestion(texts: readonly string[]): QuestionDecision {
  const no = { legacy: false, doubts: [] }
  const candidates = texts.filter((text) => text.trim() !== '' && !hasDevanagari(text))
  const readable = candidates.filter((text) => !holdsTex(text) && !isPlainNumber(text) && !isChemicalFormula(text))
  // Options of digit keys alone (`!))` १००) follow the texts with letters; they decide only when nothing else can.
  const lettered = readable.filter((text) => LETTER.test(text))
  const joined = (lettered.length > 0 ? lettered : readable).join('\n')
  if (joined === '') return no
  // Code makes it a question about code; operators only unless Preeti's signs fill the text (`&&` is also ७७).
  if (candidates.some((text) => MARKUP.test(text))) return no
  if (candidates.some((text) => OPERATORS.test(text)) && !signedThroughout(joined)) return no
  const evidence = legacyEvidence(joined)
  if (evidence === null) return no
  // Devanagari-like syllables after conversion: a sign over nothing in one word of four is no typist's text.
  const words = legacyToUnicode(joined, 'preeti').split(/\s+/).filter(Boolean)
  const malformed = words.filter((word) => malformedSigns(word) > 0).length
  if (malformed * 4 >= words.length) return no
  const doubts: string[] = []
  if (evidence === 'weak') doubts.push('the text reads as Preeti only on weak hints')
  if (malformed > 0)
    doubts.push(`${malformed} word${malformed === 1 ? '' : 's'} of it did not convert to well-formed Nepali`)
  return { legacy: true, doubts }
}

function signedThroughout(text: string): boolean {
  const words = text.split(/\s+/).filter((word) => LETTER.test(word))
  return words.length > 0 && words.filter(hasLegacySign).length * 4 >= words.length
}
