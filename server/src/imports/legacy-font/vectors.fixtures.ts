/*
 * Every vector was typed key by key on the Preeti layout (docs/legacy-fonts.md) from the Unicode on its right.
 * String.raw keeps `\` (the halant key) as typed.
 */
export type Vector = [input: string, unicode: string]

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

/** ङ and its conjuncts: `ª` alone or with the halant, and the ready-made `Í` ङ्क, `Î` ङ्ख, `Ë` ङ्ग, `‹` ङ्घ. */
const nga: Vector[] = [
  [String.raw`;ª\3`, 'सङ्घ'],
  [String.raw`;ª\3Lo`, 'सङ्घीय'],
  [String.raw`t]lGhª`, 'तेन्जिङ'],
  [String.raw`t]lGhª gf]u]{ z]kf{`, 'तेन्जिङ नोर्गे शेर्पा'],
  [String.raw`s~rghª\3f`, 'कञ्चनजङ्घा'],
  [String.raw`s~rghª\3f`, 'कञ्चनजङ्घा'],
  ['s`rghª\\3f', 'कञ्चनजङ्घा'],
  ['s~rghÍf', 'कञ्चनजङ्का'],
  ['cÍ', 'अङ्क'],
  [String.raw`cª\s`, 'अङ्क'],
  ['uËf', 'गङ्गा'],
  [String.raw`uª\uf`, 'गङ्गा'],
  ['hËn', 'जङ्गल'],
  ['zÍ/', 'शङ्कर'],
  [';ÍN', 'सङ्कल्'],
  [';Î\\of', 'सङ्ख्या'],
  [String.raw`;ª\Vof`, 'सङ्ख्या'],
  [';‹', 'सङ्घ'],
  ['klÍ\\t', 'पङ्क्ति'],
  [String.raw`klª\Qm`, 'पङ्क्ति'],
  [String.raw`kª\lQm`, 'पङ्क्ति'],
  [String.raw`;ª\lSt`, 'सङ्क्ति'],
  ['lnË', 'लिङ्ग'],
  [String.raw`dª\l;/`, 'मङ्सिर'],
  [String.raw`dlª\;/`, 'मङ्सिर'],
  ['tYofª\\s', 'तथ्याङ्क'],
  ['afª\\d', 'बाङ्म'],
  ['jfª\\do', 'वाङ्मय'],
  ["tfKn]h'ª", 'ताप्लेजुङ'],
  ["cf]vn9'Ëf", 'ओखलढुङ्गा'],
  ['cfª l/tf', 'आङ रिता'],
  ["9'Ëf", 'ढुङ्गा'],
  ['cÍul0ft', 'अङ्कगणित'],
  ['lÍ', 'ङ्कि'],
  ['lË', 'ङ्गि'],
  ['lª', 'ङि'],
]

/** The hook `m`: `km` फ, `em` झ, `pm` ऊ, `qm` क्र, `Qm` क्त, also after a short i (`lQm` क्ति). */
const hook: Vector[] = [
  [String.raw`efg'eQm`, 'भानुभक्त'],
  [String.raw`efg'eQm cfrfo{`, 'भानुभक्त आचार्य'],
  [String.raw`lgo'lQm`, 'नियुक्ति'],
  ["eQmk'/", 'भक्तपुर'],
  ['zlQm', 'शक्ति'],
  ['JolQm', 'व्यक्ति'],
  ['JolQmTj', 'व्यक्तित्व'],
  ['cleJolQm', 'अभिव्यक्ति'],
  [String.raw`;+o'Qm`, 'संयुक्त'],
  [String.raw`pQm`, 'उक्त'],
  ['/Qmrfk', 'रक्तचाप'],
  ['k|lqmof', 'प्रक्रिया'],
  ['qmflGt', 'क्रान्ति'],
  ['lqmof', 'क्रिया'],
  ['qmd', 'क्रम'],
  ['sfo{qmd', 'कार्यक्रम'],
  ['rlqmo', 'चक्रिय'],
  ['km"n', 'फूल'],
  ["kmfu'g", 'फागुन'],
  ['lkm/', 'फिर'],
  ['emf]nf', 'झोला'],
  ['lemNs', 'झिल्क'],
  ['Emofn', 'झ्याल'],
  ['pmhf{', 'ऊर्जा'],
  ['pmg', 'ऊन'],
]

/** द्व and the other ready-made conjuncts of the extended characters. */
const readyMade: Vector[] = [
  ['låkIfLo', 'द्विपक्षीय'],
  ['åf/', 'द्वार'],
  ['låtLo', 'द्वितीय'],
  ['åGå', 'द्वन्द्व'],
  ['ljåfg\\', 'विद्वान्'],
  ["a'ßf", 'बुद्मा'],
  ['kß', 'पद्म'],
  ['5ß', 'छद्म'],
  ['cÌ', 'अन्न'],
  ['leÌ', 'भिन्न'],
  ['k§L', 'पट्टी'],
  ["v'§f", 'खुट्टा'],
  ['lr¶L', 'चिठ्ठी'],
  ['c•f', 'अड्डा'],
  ['nÝ', 'लट्ठ'],
  ['¿k', 'रूप'],
  ['?v', 'रुख'],
  ['Åbo', 'हृदय'],
  ['cfÅfg', 'आहृान'],
  ["„'j", 'ध्रुव'],
  ['›Jo', 'द्रव्य'],
  ['6ØfS;L', 'ट्याक्सी'],
  ['8Øfd', 'ड्याम'],
  ['6«s', 'ट्रक'],
  ['8«fOe/', 'ड्राइभर'],
  ['¡', 'ज्ञ्'],
  ['£', 'घ्'],
  ['Œ', 'त्त्'],
  ['ˆ', 'फ्'],
  ['‰', 'झ्'],
  ['¢', 'द्घ'],
]

/** Numbers, dates and punctuation in sentences, where the ASCII key types a letter and the extended one the mark. */
const punctuationInSentences: Vector[] = [
  ['ldlt @)*!÷)!÷!%', 'मिति २०८१/०१/१५'],
  ['!)Ü', '१०%'],
  ['@ ± @ Ö $', '२ + २ = ४'],
  ['# × # Ö (', '३ × ३ = ९'],
  ['gd:sf/†', 'नमस्कार!'],
  ['s, v, u Ù 3', 'क, ख, ग ; घ'],
  ['a+=', 'बं.'],
  ['8f= /fda/0f ofbj', 'डा. रामबरण यादव'],
  ['lj=;+= @)!)', 'वि.सं. २०१०'],
  ['>L % k[YjLgf/fo0f zfx', 'श्री ५ पृथ्वीनारायण शाह'],
  ['g]kfnsf] If]qkmn !,$&,%!^ ju{ lsnf]ld6/ 5 .', 'नेपालको क्षेत्रफल १,४७,५१६ वर्ग किलोमिटर छ ।'],
  [';u/dfyfsf] prfO *\\*$*=*^ ld6/ 5 .', 'सगरमाथाको उचाइ ८्८४८.८६ मिटर छ ।'],
  [';u/dfyfsf] prfO **$*=*^ ld6/ 5 .', 'सगरमाथाको उचाइ ८८४८.८६ मिटर छ ।'],
  ["k|Zg g+= ! sf] pQ/ n]Vg'xf];\\ .", 'प्रश्न नं. १ को उत्तर लेख्नुहोस् ।'],
  [String.raw`k/LIff laxfg & ah] ;'/' x'g]5 .`, 'परीक्षा बिहान ७ बजे सुरु हुनेछ ।'],
  ['wd{ g} hLjg xf] ..', 'धर्म नै जीवन हो ॥'],
  ['hg;ª\\Vof j[l4b/ !=(@ k|ltzt 5 .', 'जनसङ्ख्या वृद्धिदर १.९२ प्रतिशत छ ।'],
]

/** A Preeti typist's answer lines: no colon key, so the visarga `M`, sometimes after a space or twice. */
const answerLines: Vector[] = [
  ['pQ/M -s_', 'उत्तरः (क)'],
  ['pQ/M-s_', 'उत्तरः(क)'],
  ['pQ/M M -s_', 'उत्तरः (क)'],
  ['pQ/ M -s_', 'उत्तरः (क)'],
  ['pQ/MM -v_', 'उत्तरः (ख)'],
  [';xL pQ/M -s_', 'सही उत्तरः (क)'],
  [';xL pQ/ M -3_', 'सही उत्तरः (घ)'],
  ['pQ/M s', 'उत्तरः क'],
  ['pQ/M -u_ sf7df8f}+', 'उत्तरः (ग) काठमाडौं'],
  ['ljifoM ;fdfGo 1fg', 'विषयः सामान्य ज्ञान'],
  ['JofVof M ;+ljwfg', 'व्याख्याः संविधान'],
]

export const groups: Record<string, Vector[]> = {
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
  'ङ and its conjuncts': nga,
  'the hook m (फ झ ऊ क्र क्त)': hook,
  'ready-made conjuncts': readyMade,
  'numbers and punctuation in sentences': punctuationInSentences,
  "a Preeti typist's answer lines": answerLines,
}
