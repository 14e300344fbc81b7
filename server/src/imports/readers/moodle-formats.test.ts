import { describe, expect, it } from 'vitest'
import { nulMessage } from '../../lib/nul'
import { rowsOf } from '../../../test/import-rows'
import { readAiken } from './aiken'
import { readGift } from './gift'
import { guessTextFormat, readInput } from '.'
import { readMoodleXml } from './moodle-xml'
import { moodleMaths, splitMultilang } from './moodle-text'

// API.md "Moodle's formats are read as Moodle reads them" and "Fidelity", construct by construct, on files written
// here in each format's published grammar.

const gift = (text: string) => rowsOf(readGift(text), 'gift')
const aiken = (text: string) => rowsOf(readAiken(text), 'aiken')
const xml = (questions: string) =>
  rowsOf(readMoodleXml(`<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions}\n</quiz>\n`), 'moodle_xml')
const codes = (row: { messages: { code: string }[] }) => row.messages.map((message) => message.code)

const multichoice = (text: string, answers: string, extra = '', format = 'html') => `<question type="multichoice">
  <name><text>q</text></name>
  <questiontext format="${format}"><text><![CDATA[${text}]]></text></questiontext>
  ${extra}
  ${answers}
</question>`
const answer = (fraction: number, text: string, feedback = '', format = 'html') =>
  `<answer fraction="${fraction}" format="${format}"><text><![CDATA[${text}]]></text><feedback format="html"><text>${feedback}</text></feedback></answer>`

describe('GIFT as Moodle reads it', () => {
  it('reads a question with a ~ as multiple choice even when an answer holds ->', async () => {
    const [row] = await gift('Which arrow means implies? {=-> ~<- ~<->}')
    expect(row!.status).toBe('ok')
    expect(row!.question.options.map((option) => option.text.en)).toEqual(['->', '<-', '<->'])
    expect(row!.question.options[0]!.is_correct).toBe(true)
  })

  it('still refuses matching (= pairs with -> and no ~), naming only matching', async () => {
    const [row] = await gift('Match the capitals. {=Nepal -> Kathmandu =India -> New Delhi}')
    expect(row!.status).toBe('rejected')
    expect(row!.messages).toEqual([
      { field: 'row', code: 'unsupported_type', message: expect.stringContaining('GIFT matching') },
    ])
  })

  it('drops partial credit from a one-= question and says how much, as a fixed row', async () => {
    const [row] = await gift('Largest planet? {=Jupiter ~%50%Saturn ~%-25%Mars ~Venus}')
    expect(row!.status).toBe('fixed')
    expect(row!.messages).toEqual([
      expect.objectContaining({ code: 'partial_credit_dropped', message: expect.stringContaining('50%, -25%') }),
    ])
    expect(row!.question.options.map((option) => option.is_correct)).toEqual([true, false, false, false])
  })

  it('reads answers split in credit with no = as a multiple question (question-types.test.ts has more)', async () => {
    const [row] = await gift('Pick the primes. {~%50%2 ~%50%3 ~%-100%4}')
    expect(row!.question.type).toBe('multiple')
    expect(row!.messages).toEqual([expect.objectContaining({ code: 'partial_marking' })])
  })

  it("makes a ~%100% answer's # feedback the hint, as an = answer's", async () => {
    const [row] = await gift('Capital of Nepal? {~%100%Kathmandu#It is in the valley. ~Pokhara#No}')
    expect(row!.status).toBe('ok')
    expect(row!.question.hint).toEqual({ en: 'It is in the valley.', ne: '' })
    expect(row!.question.options[0]!.is_correct).toBe(true)
  })

  it('removes HTML comments, Word conditional comments included', async () => {
    const [row] = await gift(
      '[html]<!--[if gte mso 9]><xml><w:WordDocument><w:View>Normal</w:View><w:Zoom>0</w:Zoom></w:WordDocument></xml><![endif]--><p>What is 2 + 2?</p><!-- a note --> {=4 ~5}',
    )
    expect(row!.question.text.en).toBe('What is 2 + 2?')
  })

  it('rewrites \\( \\) and \\[ \\] as $ and $$, checks them as maths and says so', async () => {
    const [row, bad] = await gift(
      'Solve \\(x^2 = 4\\) for \\[x > 0\\] {=\\(2\\) ~\\(-2\\)}\n\nBroken \\(\\frac\\{1\\) {=a ~b}',
    )
    expect(row!.question.text.en).toBe('Solve $x^2 = 4$ for $$x > 0$$')
    expect(row!.question.options[0]!.text.en).toBe('$2$')
    expect(row!.status).toBe('fixed')
    expect(codes(row!)).toContain('maths_rewritten')
    expect(codes(bad!)).toContain('invalid_maths')
    expect(bad!.status).toBe('rejected')
  })

  it('keeps a $ that is not maths as a dollar sign', async () => {
    const [row] = await gift('A pen costs $5 and a book $10. The total? {=$15 ~$50}')
    expect(row!.status).toBe('ok')
    expect(row!.question.text.en).toBe('A pen costs \\$5 and a book \\$10. The total?')
    expect(row!.question.options[0]!.text.en).toBe('\\$15')
  })

  it('fills en and ne from multi-language spans and {mlang}', async () => {
    const [spans, mlang] = await gift(
      '[html]<span lang="en" class="multilang">Capital of Nepal?</span><span lang="ne" class="multilang">नेपालको राजधानी?</span> {=<span lang\\="en" class\\="multilang">Kathmandu</span><span lang\\="ne" class\\="multilang">काठमाडौं</span> ~<span lang\\="en" class\\="multilang">Pokhara</span><span lang\\="ne" class\\="multilang">पोखरा</span>}\n\n' +
        // GIFT escapes the braces of {mlang} as it does every brace in a text.
        '\\{mlang en\\}Two plus two?\\{mlang\\}\\{mlang ne\\}दुई जोड दुई?\\{mlang\\} {=\\{mlang en\\}Four\\{mlang\\}\\{mlang ne\\}चार\\{mlang\\} ~\\{mlang en\\}Five\\{mlang\\}\\{mlang ne\\}पाँच\\{mlang\\}}',
    )
    expect(spans!.question.text).toEqual({ en: 'Capital of Nepal?', ne: 'नेपालको राजधानी?' })
    expect(spans!.question.options[0]!.text).toEqual({ en: 'Kathmandu', ne: 'काठमाडौं' })
    expect(mlang!.question.text).toEqual({ en: 'Two plus two?', ne: 'दुई जोड दुई?' })
    expect(mlang!.question.options[1]!.text).toEqual({ en: 'Five', ne: 'पाँच' })
  })

  it('rejects a Cloze question naming it, alone', async () => {
    const text = 'Kathmandu is in {1:MULTICHOICE:=Nepal#Right~India#Wrong} and Delhi in {1:SHORTANSWER:=India}.'
    expect(guessTextFormat(text)).toBe('gift')
    const [row] = await gift(text)
    expect(row!.status).toBe('rejected')
    expect(row!.messages).toEqual([expect.objectContaining({ message: expect.stringContaining('Cloze') })])
  })

  it('rejects a question with an audio link, an [html] picture or a table with merged cells, naming what it holds', async () => {
    const [audio, picture, table] = await gift(
      'Listen: <a href="https://example.org/q1.mp3">play</a> Which word? {=One ~Two}\n\n' +
        '[html]<p>Which flag?</p><img src="https://example.org/flag.png" alt=""> {=Nepal ~Bhutan}\n\n' +
        '[html]<table><tr><td rowspan="2">1</td></tr></table> Which? {=a ~b}',
    )
    expect(audio!.status).toBe('rejected')
    expect(codes(audio!)).toEqual(['media'])
    expect(audio!.messages[0]!.message).toMatch(/audio/)
    expect(codes(picture!)).toEqual(['image'])
    expect(codes(table!)).toEqual(['table'])
  })

  it('reads an essay ({} or braces holding only general feedback) as a written question of 1 mark, as Moodle grades it', async () => {
    const [feedbackOnly, empty] = await gift(
      'Describe the water cycle. {####A good answer names evaporation.}\n\nWrite about Nepal. {}',
    )
    expect(feedbackOnly).toMatchObject({
      status: 'ok',
      messages: [],
      question: {
        type: 'written',
        marks: 1,
        word_limit: null,
        text: { en: 'Describe the water cycle.' },
        options: [],
        model_answer: { en: 'A good answer names evaporation.' },
      },
    })
    expect(empty).toMatchObject({
      status: 'ok',
      question: { type: 'written', marks: 1, text: { en: 'Write about Nepal.' }, model_answer: null },
    })
  })

  it('names the type of a true/false question and nothing else', async () => {
    const [row] = await gift('Kathmandu is the capital. {T}')
    expect(row!.messages).toEqual([
      { field: 'row', code: 'unsupported_type', message: expect.stringMatching(/^GIFT true\/false questions/) },
    ])
  })
})

describe('Aiken as Moodle reads it', () => {
  it('reads A)Text and A.Text without a space', async () => {
    const [row] = await aiken('Capital of Nepal?\nA)Kathmandu\nB)Pokhara\nC.Biratnagar\nANSWER: A\n')
    expect(row!.status).toBe('ok')
    expect(row!.question.options.map((option) => option.text.en)).toEqual(['Kathmandu', 'Pokhara', 'Biratnagar'])
  })

  it('skips blank lines between the options and ANSWER', async () => {
    const rows = await aiken('Two plus two?\nA. 3\nB. 4\n\n\nANSWER: B\n\nThree plus three?\nA. 6\nB. 7\nANSWER: A\n')
    expect(rows.map((row) => row.status)).toEqual(['ok', 'ok'])
    expect(rows[0]!.question.options[1]!.is_correct).toBe(true)
    expect(rows[1]!.row).toBe(8)
  })

  it('leaves $ and \\ of Preeti-typed text to the converter (४ and ्), never escaping them as dollars', async () => {
    const [row] = await rowsOf(
      readAiken('@)&$ ;fndf s] eof] <\nA. ljZjdf $ j6f dxf;fu/ 5g\\\nB. s]xL klg xf]Og\nANSWER: A\n'),
      'aiken',
    )
    // Under the reader alone (legacyFont none) the typed text is kept exactly as typed.
    expect(row!.question.text.en).toBe('@)&$ ;fndf s] eof] <')
    expect(row!.question.options[0]!.text.en).toBe('ljZjdf $ j6f dxf;fu/ 5g\\')
  })

  it('ends a question at ANSWER even when it has no option, so the next one stands alone', async () => {
    const rows = await aiken(
      'A) Question not started\n\nANSWER: A\n\nA good question\nA) Correct\nB) Incorrect\nANSWER: A\n',
    )
    expect(rows.map((row) => [row.row, row.status, row.question.text.en])).toEqual([
      [1, 'rejected', 'A) Question not started'],
      [5, 'ok', 'A good question'],
    ])
  })

  it('still starts a new question after a blank line when no ANSWER came', async () => {
    const rows = await aiken('First?\nA. x\nB. y\n\nSecond?\nA. 1\nB. 2\nANSWER: B\n')
    expect(rows.map((row) => row.question.text.en)).toEqual(['First?', 'Second?'])
    expect(codes(rows[0]!)).toEqual(['no_correct'])
  })
})

describe('Moodle XML as Moodle reads it', () => {
  it('reads an essay as a written question: default grade as marks, the enforced word limit, grader information as the model answer', async () => {
    const essay = (extra: string) => `<question type="essay">
  <name><text>q</text></name>
  <questiontext format="html"><text><![CDATA[<p>Explain the role of the <b>Public Service Commission</b>.</p>]]></text></questiontext>
  <generalfeedback format="html"><text>Feedback for all</text></generalfeedback>
  ${extra}
</question>`
    const [graded, plainEssay, badGrade] = await xml(
      essay(
        '<defaultgrade>10.0000000</defaultgrade><responseformat>editor</responseformat><wordlimitenabled>1</wordlimitenabled><maxwordlimit>300</maxwordlimit><graderinfo format="html"><text><![CDATA[<p>An independent body.</p>]]></text></graderinfo>',
      ) +
        essay('') +
        essay('<defaultgrade>250</defaultgrade>'),
    )
    expect(graded).toMatchObject({
      status: 'ok',
      question: {
        type: 'written',
        marks: 10,
        word_limit: 300,
        options: [],
        model_answer: { en: 'An independent body.' },
      },
    })
    expect(graded!.question.text.en).toContain('Public Service Commission')
    // No grade: Moodle's default, 1; no grader information: the general feedback; no enforced limit: none.
    expect(plainEssay).toMatchObject({
      status: 'ok',
      question: { type: 'written', marks: 1, word_limit: null, model_answer: { en: 'Feedback for all' } },
    })
    expect(badGrade!.status).toBe('rejected')
    expect(badGrade!.messages.map((message) => message.field)).toContain('marks')
  })

  it('reads plain_text as text, so a < b and b > c keeps its words', async () => {
    const [row] = await xml(
      multichoice(
        'If a < b and b > c, which holds?',
        answer(100, 'b is largest', '', 'plain_text') + answer(0, 'a > c'),
        '',
        'plain_text',
      ),
    )
    expect(row!.question.text.en).toBe('If a < b and b > c, which holds?')
    expect(row!.question.options[0]!.text.en).toBe('b is largest')
  })

  it('keeps markup in plain_text as text, never as a picture', async () => {
    const [row] = await xml(
      multichoice(
        'What does <img src="a.png"> show?',
        answer(100, 'A picture', '', 'plain_text') + answer(0, 'A table'),
        '',
        'plain_text',
      ),
    )
    expect(row!.status).toBe('ok')
    expect(row!.question.text.en).toBe('What does <img src="a.png"> show?')
  })

  it('reads single 1 as single answer and drops partial credit as a fixed row', async () => {
    const [row] = await xml(
      multichoice(
        'Largest?',
        answer(100, 'Jupiter') + answer(33.33333, 'Saturn') + answer(0, 'Mars'),
        '<single>1</single>',
      ),
    )
    expect(row!.status).toBe('fixed')
    expect(row!.messages).toEqual([
      expect.objectContaining({ code: 'partial_credit_dropped', message: expect.stringContaining('33.33333%') }),
    ])
  })

  it('reads single false and 0 as multiple answer (question-types.test.ts has more)', async () => {
    const rows = await xml(
      ['false', '0']
        .map((single) => multichoice('Primes?', answer(50, '2') + answer(50, '3'), `<single>${single}</single>`))
        .join('\n'),
    )
    for (const row of rows) expect(row.question.type).toBe('multiple')
  })

  it('rejects a Moodle 1.9 <image> question and an @@PLUGINFILE@@ audio link', async () => {
    const [image, audio] = await xml(
      multichoice('Which flag?', answer(100, 'Nepal') + answer(0, 'Bhutan'), '<image>flags/nepal.png</image>') +
        multichoice(
          '<p>Listen: <a href="@@PLUGINFILE@@/word.mp3">word.mp3</a></p>',
          answer(100, 'One') + answer(0, 'Two'),
        ),
    )
    expect(codes(image!)).toEqual(['image'])
    expect(codes(audio!)).toEqual(['media'])
  })

  it('removes Word comments and splits multilang spans in HTML text', async () => {
    const [row] = await xml(
      multichoice(
        '<!--[if gte mso 9]><xml><w:View>Normal</w:View><w:Zoom>0</w:Zoom></xml><![endif]--><p><span lang="en" class="multilang">Capital?</span><span lang="ne" class="multilang">राजधानी?</span></p>',
        answer(100, 'Kathmandu') + answer(0, 'Pokhara'),
      ),
    )
    expect(row!.question.text).toEqual({ en: 'Capital?', ne: 'राजधानी?' })
  })

  it('names Cloze and only Cloze for a multianswer question, and the feedback of the right answer as the hint', async () => {
    const [cloze, hinted] = await xml(
      `<question type="multianswer"><questiontext format="html"><text>{1:MC:=a~b}</text></questiontext></question>` +
        multichoice('Capital?', answer(100, 'Kathmandu', 'In the valley.') + answer(0, 'Pokhara')),
    )
    expect(cloze!.messages).toEqual([
      { field: 'row', code: 'unsupported_type', message: expect.stringContaining('embedded answers (Cloze)') },
    ])
    expect(hinted!.question.hint).toEqual({ en: 'In the valley.', ne: '' })
  })

  it('rewrites Moodle maths and escapes dollars', async () => {
    const [row] = await xml(multichoice('Cost of \\(x\\) pens at $2?', answer(100, '\\(2x\\)') + answer(0, '$x$')))
    expect(row!.question.text.en).toBe('Cost of $x$ pens at \\$2?')
    expect(row!.question.options[1]!.text.en).toBe('\\$x\\$')
    expect(row!.messages.map((message) => [message.field, message.code])).toEqual([
      ['text', 'maths_rewritten'],
      ['options.0.text', 'maths_rewritten'],
    ])
  })
})

describe('Cloze whatever the format guessed', () => {
  it('rejects embedded answers in pasted text naming Cloze', async () => {
    const { drafts, format } = await readInput({
      file: null,
      text: '1. Kathmandu is in {1:MULTICHOICE:=Nepal~India}\nA. yes\nB. no\nAnswer: A\n',
      format: 'text',
    })
    const [row] = await rowsOf(drafts, format)
    expect(row!.messages).toEqual([expect.objectContaining({ message: expect.stringContaining('Cloze') })])
  })
})

describe('moodle-text helpers', () => {
  it('leaves $$…$$ and \\$ alone', () => {
    expect(moodleMaths('$$x$$ and \\$3 and $4')).toEqual({ text: '$$x$$ and \\$3 and \\$4', rewritten: false })
  })
  it('keeps the text around a multilang group, spaces included', () => {
    expect(splitMultilang('Q1. {mlang en}Capital{mlang} {mlang ne}राजधानी{mlang} of Nepal?')).toEqual({
      en: 'Q1. Capital of Nepal?',
      ne: 'Q1. राजधानी of Nepal?',
    })
  })

  it('returns null without multilang and en only when no Nepali part', () => {
    expect(splitMultilang('plain')).toBeNull()
    expect(
      splitMultilang('<span lang="en" class="multilang">Hi</span><span lang="fr" class="multilang">Salut</span>'),
    ).toEqual({
      en: 'Hi',
      ne: '',
    })
  })
})

describe('a NUL character in an imported text (issue 72)', () => {
  it('rejects the row at the field, since PostgreSQL cannot store it', async () => {
    const [row] = await gift('Which is\u0000 right? {=Yes ~No}')
    expect(row!.status).toBe('rejected')
    expect(row!.messages).toContainEqual({ field: 'text.en', code: 'invalid', message: nulMessage })
    const [clean] = await gift('Which is right? {=Yes ~No}')
    expect(clean!.status).toBe('ok')
  })
})
