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

/** The keys of a consonant cluster (no vowel sign), or null when one of its letters has no key. */
function typeCluster(cluster: string): string | null {
  let keys = ''
  let rest = cluster
  while (rest !== '') {
    const conjunct = conjunctKeys.find(([letters]) => rest.startsWith(letters))
    const [letters, full, half] = conjunct ?? [rest[0]!, fullKeys[rest[0]!], halfKeys[rest[0]!] ?? null]
    if (full === undefined) return null
    rest = rest.slice(letters.length)
    if (rest.startsWith(`${HALANT}र`) && (rest.length === 2 || rest[2] !== HALANT)) {
      keys += `${full}|` // ra below: `k|` प्र
      rest = rest.slice(2)
    } else if (rest.startsWith(HALANT)) {
      keys += half ?? `${full}\\`
      rest = rest.slice(1)
    } else keys += full
  }
  return keys
}

/** `text` typed on the Preeti keyboard, or null when it holds a character Preeti has no ASCII key for. */
export function typeOnPreeti(text: string): string | null {
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
      if (!(c in otherKeys)) return null
      keys += otherKeys[c]
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
    const typed = typeCluster(cluster)
    if (typed === null) return null
    keys += `${shortI ? 'l' : ''}${typed}${halant}${signs}${reph ? '{' : ''}${modifiers}`
    at = end
  }
  return keys
}
