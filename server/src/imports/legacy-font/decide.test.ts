import { describe, expect, it } from 'vitest'
import {
  decideQuestion,
  holdsCode,
  holdsTex,
  isChemicalFormula,
  isPlainNumber,
  mayBeLegacy,
  readsAsEnglish,
} from './detect'
import { sentences } from '../../../test/fixtures/nepali-corpus.fixtures'
import { typeOnPreeti } from '../../../test/fixtures/preeti-typist.fixtures'

/* Under `auto`, one decision per question: its text and options together (docs/decisions/044). */

const never: Array<[name: string, texts: string[]]> = [
  ['a comment sign question', ['Which symbol starts a comment in Python?', '#', '//', '/*', '--']],
  ['GIFT specials', ['In GIFT, which characters must be escaped?', String.raw`~ = # { } :`, '\\', 'none', 'all']],
  ['boolean operators', ['a && b || !c', 'true', 'false', '!c', 'a && b']],
  ['operators alone', ['&&', '||', '!', '::']],
  ['symbols alone', ['#', '{ }', ':', '\\']],
  ['TeX in dollars', ['Solve $x^2 = 4$', '$x = 2$', String.raw`$x = \pm 2$`, '$x = -2$', '$x = 4$']],
  ['Moodle TeX', [String.raw`\(x^2 = 4\)`, String.raw`\(2\)`, String.raw`\(\pm 2\)`, String.raw`\(-2\)`]],
  [
    'TeX without words',
    [String.raw`$\frac{1}{2} + \frac{1}{3}$`, String.raw`$\frac{5}{6}$`, '$1$', String.raw`$\frac{2}{5}$`],
  ],
  ['chemical formulas', ['H2O', 'CO2', 'NaCl', 'H2SO4']],
  ['mhchem', [String.raw`$\ce{H2SO4}$ is`, 'an acid', 'a base', 'a salt']],
  ['C code', ['int main() { return 0; }', 'returns 0', 'returns 1', 'does not compile']],
  ['increments', ['x = 5; y = x++;', 'y = 5', 'y = 6', 'x = 5']],
  ['SQL', ['SELECT * FROM users WHERE id = 1;', 'DQL', 'DML', 'DDL', 'DCL']],
  ['a topic-like word', ['sql-dql', 'ddl', 'dml', 'tcl']],
  ['HTML', ['<b>bold</b> or <i>italic</i>?', '<b>', '<i>', '<u>', '<s>']],
  ['numbers', ['2 + 2 = ?', '3', '4', '5', '22']],
  ['a date and a percentage', ['2081/01/15', '15%', '3.14', '1,250']],
  ['English', ['What is the capital of Nepal?', 'Kathmandu', 'Pokhara', 'Biratnagar', 'Janakpur']],
  ['English words alone', ['Kathmandu', 'Pokhara', 'Lalitpur', 'Bhaktapur']],
  ['Unicode Nepali', ['नेपालको राजधानी कुन हो ?', 'काठमाडौं', 'पोखरा']],
  ['function calls', ['print()', 'input()', 'len()', 'str()']],
]

const preeti: Array<[name: string, texts: string[]]> = [
  ['a question and its one-word options', [`g]kfnsf] /fhwfgL s'g xf] <`, 'sf7df8f}+', 'kf]v/f', 'unt', '!))']],
  ['options that alone read as nothing', [`tnsf dWo] s'g ;xL xf] <`, 'unt', 'bz', 'efiff', 'cEof;']],
  ['conjuncts', [`efg'eQm cfrfo{sf] hGd slxn] eof] <`, '!*&!', '!*&@', '!*&#', '!*&$']],
  ['ङ', [String.raw`;ª\3Lo ;+;b\ sltj6f ;bgsf] x'G5 <`, '!', '@', '#', '$']],
  ['an answer line', ['pQ/M -s_', 'sf7df8f}+']],
]

describe('decideQuestion', () => {
  it.each(never)('leaves %s alone', (_name, texts) => {
    expect(decideQuestion(texts)).toEqual({ legacy: false, doubts: [] })
  })

  it.each(preeti)('reads %s as Preeti', (_name, texts) => {
    expect(decideQuestion(texts).legacy).toBe(true)
  })

  it('reads every corpus sentence typed on Preeti, with its options, as Preeti, and is sure of it', () => {
    for (const sentence of sentences) {
      const decision = decideQuestion([typeOnPreeti(sentence, 'extended')!, 'sf7df8f}+', 'kf]v/f'])
      expect(decision, sentence).toEqual({ legacy: true, doubts: [] })
    }
  })

  it('converts a Preeti question but leaves its English, acronyms, formulas and TeX options alone', () => {
    expect(decideQuestion([`kfgLsf] /f;folgs ;"q s] xf] <`, 'H2O', 'CO2', 'NaCl']).legacy).toBe(true)
    for (const text of ['CPU', 'the DNA', 'H2O', '$x^2$', '2072'])
      expect(mayBeLegacy(text) && !readsAsEnglish(text), text).toBe(false)
    expect(readsAsEnglish('CPU')).toBe(true)
    expect(readsAsEnglish('Ps')).toBe(false)
  })

  it('names thin evidence as a doubt', () => {
    expect(decideQuestion(['unt', 'slt']).doubts).toEqual(['the text reads as Preeti only on weak hints'])
  })
})

describe('what is never legacy text', () => {
  it.each([
    String.raw`\(x\)`,
    String.raw`\[x^2\]`,
    '$x^2$',
    '$$a+b$$',
    String.raw`$\alpha$`,
    String.raw`\frac{1}{2}`,
    '$x$',
  ])('TeX: %s', (text) => expect(holdsTex(text)).toBe(true))

  it.each(['$ jif{ $ dlxgf', String.raw`5g\ <`, String.raw`;ª\3`, String.raw`b\jf/`, '$)$ ?k}of'])(
    'Preeti with $ or \\: %s',
    (text) => expect(holdsTex(text)).toBe(false),
  )

  it.each([
    'a && b',
    'a || b',
    'x == y',
    'x => x',
    'std::cout',
    'i++',
    '<p>',
    'main()',
    'SELECT name',
    '>>> crc32(x)',
    '"type": "object",',
    "'react-hooks/purity': 'error',",
    '- [Hooks](#hooks)',
    '0xc0,',
    "const picomatch = require('picomatch');",
    '```js',
  ])('code: %s', (text) => expect(holdsCode(text)).toBe(true))

  it.each([
    '!= g]kfn',
    '->L k|;fb_',
    '!&&',
    'c+s',
    '-s_ kf]v/f',
    's= sf7df8f}+',
    `ljifo M ;fdfGo 1fg`,
    String.raw`s'/f ug'{xf];\ .`,
  ])('Preeti, not code: %s', (text) => expect(holdsCode(text)).toBe(false))

  it.each(['100', '3.14', '2081/01/15', '15%', '1,250', '(1)'])('a bare number: %s', (text) =>
    expect(isPlainNumber(text)).toBe(true),
  )

  it.each(['!))', 'H2O', '5 g'])('not a bare number: %s', (text) => expect(isPlainNumber(text)).toBe(false))

  it.each(['H2O', 'NaCl', 'CO2', 'H2SO4', 'Ca(OH)2', 'CaCO3', '2H2 + O2 = 2H2O', 'NaOH + HCl'])(
    'a formula: %s',
    (text) => expect(isChemicalFormula(text)).toBe(true),
  )

  it.each(['Ps', 'Clif', 'P]g', 'Cu', 'cf', 'In'])('no formula: %s', (text) =>
    expect(isChemicalFormula(text)).toBe(false),
  )
})

describe('the decision on long text', () => {
  // Each of these was quadratic in an earlier form (a regular expression's backtracking, a sort by swaps).
  it.each([
    ['dollars with TeX signs and no formula', `$${'a+'.repeat(50_000)} `],
    ['many unclosed tags', '<a '.repeat(30_000)],
    ['nasal signs before a vowel sign', `s${'+'.repeat(100_000)}f`],
    ['a long Preeti text', `g]kfnsf] /fhwfgL s'g xf] < `.repeat(4_000)],
  ])('decides %s in linear time', (_name, text) => {
    const started = performance.now()
    decideQuestion([text, text])
    expect(performance.now() - started).toBeLessThan(2_000)
  })
})
