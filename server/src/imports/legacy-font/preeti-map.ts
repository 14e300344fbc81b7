/**
 * The Preeti keyboard: which Devanagari each ASCII key shows in the Preeti font (docs/legacy-fonts.md lists it by
 * groups). Written from the layout itself, clean-room (docs/decisions/033): no public converter's table was used.
 *
 * Keys are read longest first, so a glyph built from two keys (the hook `m` after प makes फ, the bar `f` after अ
 * makes आ) wins over its parts.
 */
export const preetiKeys: Readonly<Record<string, string>> = {
  // Vowels that are one glyph made of two keys.
  'cf]': 'ओ',
  'cf}': 'औ',
  cf: 'आ',
  'O{': 'ई',
  'P]': 'ऐ',
  pm: 'ऊ',
  // The hook `m` turns प into फ, भ into झ, त्र into क्र and त्त into क्त (`efg'eQm` भानुभक्त, `k|lqmof` प्रक्रिया).
  km: 'फ',
  Km: 'फ्',
  em: 'झ',
  Em: 'झ्',
  qm: 'क्र',
  Qm: 'क्त',

  // Lower-case letters: full consonants, vowel signs, vowels.
  a: 'ब',
  b: 'द',
  c: 'अ',
  d: 'म',
  e: 'भ',
  f: 'ा',
  g: 'न',
  h: 'ज',
  i: 'ष्',
  j: 'व',
  k: 'प',
  l: 'ि',
  n: 'ल',
  o: 'य',
  p: 'उ',
  q: 'त्र',
  r: 'च',
  s: 'क',
  t: 'त',
  u: 'ग',
  v: 'ख',
  w: 'ध',
  x: 'ह',
  y: 'थ',
  z: 'श',

  // Upper-case letters: mostly the half form of the same key's consonant.
  A: 'ब्',
  B: 'द्य',
  C: 'ऋ',
  D: 'म्',
  E: 'भ्',
  F: 'ँ',
  G: 'न्',
  H: 'ज्',
  I: 'क्ष्',
  J: 'व्',
  K: 'प्',
  L: 'ी',
  M: 'ः',
  N: 'ल्',
  O: 'इ',
  P: 'ए',
  Q: 'त्त',
  R: 'च्',
  S: 'क्',
  T: 'त्',
  U: 'ग्',
  V: 'ख्',
  W: 'ध्',
  X: 'ह्',
  Y: 'थ्',
  Z: 'श्',

  // The digit row types letters; shifted, it types the Devanagari digits.
  '1': 'ज्ञ',
  '2': 'द्द',
  '3': 'घ',
  '4': 'द्ध',
  '5': 'छ',
  '6': 'ट',
  '7': 'ठ',
  '8': 'ड',
  '9': 'ढ',
  '0': 'ण्',
  '!': '१',
  '@': '२',
  '#': '३',
  $: '४',
  '%': '५',
  '^': '६',
  '&': '७',
  '*': '८',
  '(': '९',
  ')': '०',

  // Signs and punctuation.
  '[': 'ृ',
  ']': 'े',
  '}': 'ै',
  '{': 'र्', // reph: typed after its syllable, moved before it by the rules
  '\\': '्',
  '|': '्र',
  '«': '्र', // the ra-phala drawn under ट and ड
  "'": 'ु',
  '"': 'ू',
  ';': 'स',
  ':': 'स्',
  '/': 'र',
  '?': 'रु',
  '<': '?',
  '>': 'श्र',
  '.': '।',
  '=': '.',
  '+': 'ं',
  '-': '(',
  _: ')',
  '`': 'ञ्',
  '~': 'ञ्',

  /*
   * The extended characters (AltGr, or Alt and a code, in Windows-1252): ङ and its conjuncts, the ready-made
   * conjuncts, and the punctuation whose ASCII key types a letter (`/` is र, so a slash is `÷`). Word stores the
   * character the typist entered, so these arrive as the Latin-1 / Windows-1252 letters below.
   */
  ª: 'ङ',
  Í: 'ङ्क',
  Î: 'ङ्ख',
  Ë: 'ङ्ग',
  '‹': 'ङ्घ',
  å: 'द्व',
  '›': 'द्र',
  ß: 'द्म',
  '¢': 'द्घ',
  Ì: 'न्न',
  Å: 'हृ',
  '¿': 'रू',
  '§': 'ट्ट',
  Ý: 'ट्ठ',
  '¶': 'ठ्ठ',
  '•': 'ड्ड',
  '„': 'ध्र',
  Ø: '्य', // ya below a letter that has no half form: `6Ø` ट्य
  '¡': 'ज्ञ्',
  '£': 'घ्',
  '‰': 'झ्',
  Œ: 'त्त्',
  ˆ: 'फ्',
  '÷': '/',
  Ù: ';',
  Ö: '=',
  Ü: '%',
  '†': '!',
  '±': '+',
  '×': '×',
}

/**
 * Kantipur's keys where they differ from Preeti's. Kantipur was made to type like Preeti: every ASCII key above
 * shows the same Devanagari in both fonts, so no entry here changes the ASCII layout (docs/decisions/033 says what
 * is known and what is not).
 */
export const kantipurOverrides: Readonly<Record<string, string>> = {}
