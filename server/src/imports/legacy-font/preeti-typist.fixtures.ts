/*
 * For tests: types Unicode Nepali on the Preeti keyboard as a typist does (ि before its cluster, the reph after its
 * syllable, ो as ा then े), so that whole sentences can be checked. Independent of convert.ts: it only shares the
 * keyboard, written here the other way round. Text with a letter Preeti has no ASCII key for gives null.
 */

const fullKeys: Record<string, string> = {
  क: 's',
  ख: 'v',
  ग: 'u',
  घ: '3',
  च: 'r',
  छ: '5',
  ज: 'h',
  झ: 'em',
  ञ: '`f',
  ट: '6',
  ठ: '7',
  ड: '8',
  ढ: '9',
  ण: '0f',
  त: 't',
  थ: 'y',
  द: 'b',
  ध: 'w',
  न: 'g',
  प: 'k',
  फ: 'km',
  ब: 'a',
  भ: 'e',
  म: 'd',
  य: 'o',
  र: '/',
  ल: 'n',
  व: 'j',
  श: 'z',
  ष: 'if',
  स: ';',
  ह: 'x',
  ङ: 'ª',
}
const halfKeys: Record<string, string> = {
  क: 'S',
  ख: 'V',
  ग: 'U',
  च: 'R',
  ज: 'H',
  झ: 'Em',
  ञ: '`',
  ण: '0',
  त: 'T',
  थ: 'Y',
  ध: 'W',
  न: 'G',
  प: 'K',
  फ: 'Km',
  ब: 'A',
  भ: 'E',
  म: 'D',
  ल: 'N',
  व: 'J',
  श: 'Z',
  ष: 'i',
  स: ':',
  ह: 'X',
}
/** The extended characters' conjuncts (AltGr or an Alt code), typed when the typist uses them. */
const extendedConjunctKeys: Array<[string, string, string | null]> = [
  ['क्त', 'Qm', null],
  ['क्र', 'qm', null],
  ['ङ्क', 'Í', null],
  ['ङ्ख', 'Î', null],
  ['ङ्ग', 'Ë', null],
  ['ङ्घ', '‹', null],
  ['द्व', 'å', null],
  ['द्र', '›', null],
  ['द्म', 'ß', null],
  ['द्घ', '¢', null],
  ['न्न', 'Ì', null],
  ['ट्ट', '§', null],
  ['ट्ठ', 'Ý', null],
  ['ठ्ठ', '¶', null],
  ['ड्ड', '•', null],
  ['ध्र', '„', null],
]
const extendedOtherKeys: Record<string, string> = { '/': '÷', ';': 'Ù', '=': 'Ö', '%': 'Ü', '!': '†', '+': '±' }
/** Conjuncts with a key of their own, longest first. */
const conjunctKeys: Array<[string, string, string | null]> = [
  ['क्ष', 'If', 'I'],
  ['त्र', 'q', null],
  ['ज्ञ', '1', null],
  ['श्र', '>', null],
  ['त्त', 'Q', null],
  ['द्द', '2', null],
  ['द्ध', '4', null],
  ['द्य', 'B', null],
]
const vowelKeys: Record<string, string> = {
  अ: 'c',
  आ: 'cf',
  इ: 'O',
  ई: 'O{',
  उ: 'p',
  ऊ: 'pm',
  ऋ: 'C',
  ए: 'P',
  ऐ: 'P]',
  ओ: 'cf]',
  औ: 'cf}',
}
const signKeys: Record<string, string> = {
  'ा': 'f',
  'ी': 'L',
  'ु': "'",
  'ू': '"',
  'ृ': '[',
  'े': ']',
  'ै': '}',
  'ो': 'f]',
  'ौ': 'f}',
}
const modifierKeys: Record<string, string> = { 'ं': '+', 'ँ': 'F', 'ः': 'M' }
const otherKeys: Record<string, string> = {
  '०': ')',
  '१': '!',
  '२': '@',
  '३': '#',
  '४': '$',
  '५': '%',
  '६': '^',
  '७': '&',
  '८': '*',
  '९': '(',
  '।': '.',
  '॥': '..',
  '?': '<',
  '.': '=',
  '(': '-',
  ')': '_',
  ',': ',',
  ' ': ' ',
  '\n': '\n',
}

const HALANT = '्'
const isConsonant = (c: string | undefined) => c !== undefined && c in fullKeys

/**
 * How the typist works: `ascii` uses only the keys of an English keyboard (ङ and its conjuncts are then out of
 * reach), `extended` also the AltGr / Alt-code characters where the font has a glyph for the whole conjunct.
 */
export type TypingStyle = 'ascii' | 'extended'

/** The keys of a consonant cluster (no vowel sign), or null when one of its letters has no key. */
function typeCluster(cluster: string, style: TypingStyle): string | null {
  let keys = ''
  let rest = cluster
  const conjuncts = style === 'extended' ? [...extendedConjunctKeys, ...conjunctKeys] : conjunctKeys
  while (rest !== '') {
    if (style === 'extended' && rest.startsWith(`${HALANT}य`) && keys !== '' && !(rest[2] === HALANT)) {
      keys += 'Ø' // ya below a letter with no half form: `6Ø` ट्य
      rest = rest.slice(2)
      continue
    }
    const conjunct = conjuncts.find(([letters]) => rest.startsWith(letters))
    const [letters, full, half] = conjunct ?? [rest[0]!, fullKeys[rest[0]!], halfKeys[rest[0]!] ?? null]
    if (full === undefined || (full === 'ª' && style === 'ascii')) return null
    rest = rest.slice(letters.length)
    if (rest.startsWith(`${HALANT}र`) && (rest.length === 2 || rest[2] !== HALANT)) {
      // ra below: `k|` प्र; under ट and ड the extended `«` (`6«` ट्र)
      keys += `${full}${style === 'extended' && (full === '6' || full === '8') ? '«' : '|'}`
      rest = rest.slice(2)
    } else if (rest.startsWith(HALANT)) {
      const noHalf = half === null && style === 'extended' && rest.startsWith(`${HALANT}य`) && rest[2] !== HALANT
      keys += noHalf ? full : (half ?? `${full}\\`)
      rest = rest.slice(noHalf ? 0 : 1)
    } else keys += full
  }
  return keys
}

/** `text` typed on the Preeti keyboard, or null when it holds a character the typist has no key for. */
export function typeOnPreeti(text: string, style: TypingStyle = 'ascii'): string | null {
  const others = style === 'extended' ? { ...otherKeys, ...extendedOtherKeys } : otherKeys
  const chars = [...text.normalize('NFC')]
  let keys = ''
  for (let at = 0; at < chars.length;) {
    const c = chars[at]!
    if (c in vowelKeys) {
      keys += vowelKeys[c]
      at++
      while (chars[at]! in modifierKeys) keys += modifierKeys[chars[at++]!]
      continue
    }
    if (!isConsonant(c)) {
      if (!(c in others)) return null
      keys += others[c]
      at++
      continue
    }
    // One syllable: consonants joined by halants, then its signs.
    let end = at + 1
    while (chars[end] === HALANT && isConsonant(chars[end + 1])) end += 2
    let cluster = chars.slice(at, end).join('')
    const reph = cluster.startsWith(`र${HALANT}`)
    if (reph) cluster = cluster.slice(2)
    let shortI = false
    let signs = ''
    for (; chars[end] === 'ि' || chars[end]! in signKeys; end++)
      if (chars[end] === 'ि') shortI = true
      else signs += signKeys[chars[end]!]
    let modifiers = ''
    for (; chars[end]! in modifierKeys; end++) modifiers += modifierKeys[chars[end]!]
    let halant = ''
    if (chars[end] === HALANT) {
      halant = '\\'
      end++
    }
    // रु रू and हृ have glyphs of their own: `?`, `¿`, `Å`.
    if (cluster === 'र' && (signs.startsWith("'") || (style === 'extended' && signs.startsWith('"')))) {
      keys += `${shortI ? 'l' : ''}${signs.startsWith("'") ? '?' : '¿'}${halant}${signs.slice(1)}${reph ? '{' : ''}${modifiers}`
      at = end
      continue
    }
    if (cluster === 'ह' && style === 'extended' && signs.startsWith('[')) {
      keys += `${shortI ? 'l' : ''}Å${halant}${signs.slice(1)}${reph ? '{' : ''}${modifiers}`
      at = end
      continue
    }
    const typed = typeCluster(cluster, style)
    if (typed === null) return null
    keys += `${shortI ? 'l' : ''}${typed}${halant}${signs}${reph ? '{' : ''}${modifiers}`
    at = end
  }
  return keys
}
