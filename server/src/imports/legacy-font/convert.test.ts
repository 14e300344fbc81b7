import { describe, expect, it } from 'vitest'
import { legacyToUnicode, type LegacyFont } from './convert'

/*
 * Every vector was typed key by key on the Preeti layout (docs/legacy-fonts.md) from the Unicode on its right.
 * String.raw keeps `\` (the halant key) as typed.
 */
type Vector = [input: string, unicode: string]

const examQuestions: Vector[] = [
  [String.raw`g]kfnsf] ;+ljwfg @)&@ cg';f/ g]kfndf slt k|b]z 5g\ <`, 'नेपालको संविधान २०७२ अनुसार नेपालमा कति प्रदेश छन् ?'],
  [`g]kfnsf] ;a}eGbf cUnf] lxdfn s'g xf] <`, 'नेपालको सबैभन्दा अग्लो हिमाल कुन हो ?'],
  [`k[YjLsf] ;a}eGbf glhssf] u|x s'g xf] <`, 'पृथ्वीको सबैभन्दा नजिकको ग्रह कुन हो ?'],
  [`nf]s ;]jf cfof]usf] k/LIff`, 'लोक सेवा आयोगको परीक्षा'],
  [`s= sf7df8f}+ v= kf]v/f u= lj/f6gu/ 3= hgsk'/`, 'क. काठमाडौं ख. पोखरा ग. विराटनगर घ. जनकपुर'],
  [`;xL pQ/M -v_`, 'सही उत्तरः (ख)'],
  ["k|Zg != g]kfnsf] /fhwfgL s'g xf] <\npQ/M sf7df8f}+", 'प्रश्न १. नेपालको राजधानी कुन हो ?\nउत्तरः काठमाडौं'],
]

const names: Vector[] = [
  [`/fd axfb'/ yfkf`, 'राम बहादुर थापा'],
  [`k'iksdn bfxfn`, 'पुष्पकमल दाहाल'],
  [`s[i0f k|;fb`, 'कृष्ण प्रसाद'],
  [`nIdL zdf{`, 'लक्ष्मी शर्मा'],
  [`eStk'/ nlntk'/ wgu9L O6x/L a'6jn`, 'भक्तपुर ललितपुर धनगढी इटहरी बुटवल'],
  [`;u/dfyf hgsk'/wfd`, 'सगरमाथा जनकपुरधाम'],
]

const numbersAndDates: Vector[] = [
  ['!))', '१००'],
  ['@)&@', '२०७२'],
  ['!@#$%^&*()', '१२३४५६७८९०'],
  [`ldlt @)*! ;fn j}zfv !% ut]`, 'मिति २०८१ साल वैशाख १५ गते'],
  ['?= !,@%)', 'रु. १,२५०'],
  ['#=!$', '३.१४'],
]

const punctuation: Vector[] = [
  ['xf] .', 'हो ।'],
  ['wd{ g} hLjg xf] ..', 'धर्म नै जीवन हो ॥'],
  ['-s_ / -v_', '(क) र (ख)'],
  ['/fd, ;Ltf / uLtf', 'राम, सीता र गीता'],
  ['nf]s\t;]jf\r\ncfof]u', 'लोक\tसेवा\r\nआयोग'],
]

const shortI: Vector[] = [
  ['ls', 'कि'],
  ['JolSt', 'व्यक्ति'],
  ['zflGt', 'शान्ति'],
  ['tfls{s', 'तार्किक'],
  ['l:ylt', 'स्थिति'],
  ['lk|o', 'प्रिय'],
  ['lj1fg', 'विज्ञान'],
  ['ljBfno', 'विद्यालय'],
  ['lIflt', 'क्षिति'],
  ['Clif', 'ऋषि'],
  [`cf}iflw`, 'औषधि'],
  [';+ljwfg', 'संविधान'],
]

const reph: Vector[] = [
  ['wd{', 'धर्म'],
  ['sfo{', 'कार्य'],
  ['k"j{', 'पूर्व'],
  ['jif{', 'वर्ष'],
  ['sLlt{', 'कीर्ति'],
  ['ljBfyL{', 'विद्यार्थी'],
  ['lg0f{o', 'निर्णय'],
  ['cfly{s', 'आर्थिक'],
  ['sfo{s|d', 'कार्यक्रम'],
  [';"o{', 'सूर्य'],
]

const conjuncts: Vector[] = [
  ['C0f', 'ऋण'],
  ['s[lif', 'कृषि'],
  ['>d >L', 'श्रम श्री'],
  ['If]q lzIfs', 'क्षेत्र शिक्षक'],
  ['ldq kq', 'मित्र पत्र'],
  ['1fg', 'ज्ञान'],
  [`o'4 a'4`, 'युद्ध बुद्ध'],
  ['x|:j', 'ह्रस्व'],
]

const halfForms: Vector[] = [
  [`:s'n k':ts`, 'स्कुल पुस्तक'],
  ['aRrf', 'बच्चा'],
  [';DklQ', 'सम्पत्ति'],
  ['u08sL', 'गण्डकी'],
  ['dGqL', 'मन्त्री'],
  ['pQ/', 'उत्तर'],
  ['SofDk;', 'क्याम्पस'],
  [`sDKo'6/`, 'कम्प्युटर'],
]

const vowels: Vector[] = [
  ['sf] sf}', 'को कौ'],
  ['cf cf] cf}', 'आ ओ औ'],
  ['O{Zj/', 'ईश्वर'],
  ['P]g', 'ऐन'],
  ['P O p', 'ए इ उ'],
  ['c+s', 'अंक'],
  ['kfFr sxfF', 'पाँच कहाँ'],
  ['ctM', 'अतः'],
  ['kmn', 'फल'],
]

/** What a typist puts in a different order than the glyphs' Unicode: the output is still well formed. */
const cleanUp: Vector[] = [
  ['kFfr', 'पाँच'],
  ['n]f', 'लो'],
  ['s}f', 'कौ'],
]

const groups: Record<string, Vector[]> = {
  'exam questions': examQuestions,
  'names of people and places': names,
  'numbers and dates': numbersAndDates,
  punctuation,
  'short i before conjuncts': shortI,
  reph,
  'ऋ and the conjuncts of one key': conjuncts,
  'half forms': halfForms,
  'vowels, vowel signs, anusvara, chandrabindu and visarga': vowels,
  'signs typed out of order': cleanUp,
}

describe.each(['preeti', 'kantipur'] as LegacyFont[])('legacyToUnicode in %s', (font) => {
  describe.each(Object.entries(groups))('%s', (_group, vectors) => {
    it.each(vectors)('%s -> %s', (input, unicode) => {
      expect(legacyToUnicode(input, font)).toBe(unicode)
    })
  })
})

describe('legacyToUnicode', () => {
  it('gives NFC text', () => {
    for (const vectors of Object.values(groups))
      for (const [input] of vectors) {
        const out = legacyToUnicode(input, 'preeti')
        expect(out).toBe(out.normalize('NFC'))
      }
  })

  it('leaves no short i or reph mark behind, even with nothing to attach to', () => {
    expect(legacyToUnicode('l', 'preeti')).toBe('ि')
    expect(legacyToUnicode('{', 'preeti')).toBe('र्')
    expect(legacyToUnicode('cf{', 'preeti')).toBe('आर्')
  })

  it('keeps Devanagari the text already holds, and does not move its ि', () => {
    expect(legacyToUnicode('नेपाल g]kfn', 'preeti')).toBe('नेपाल नेपाल')
    expect(legacyToUnicode('कि', 'preeti')).toBe('कि')
  })

  it('reads every ASCII letter as a key: English belongs in its own run, converted apart', () => {
    expect(legacyToUnicode('CPU', 'preeti')).toBe('ऋएग्')
    const sentence = [
      legacyToUnicode(`sDKo'6/ `, 'preeti'),
      'Computer',
      legacyToUnicode(` sf] k'/f gfd s] xf] <`, 'preeti'),
    ].join('')
    expect(sentence).toBe('कम्प्युटर Computer को पुरा नाम के हो ?')
  })

  it('gives an empty text for an empty text', () => {
    expect(legacyToUnicode('', 'kantipur')).toBe('')
  })
})
