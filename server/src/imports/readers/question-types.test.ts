import { describe, expect, it } from 'vitest'
import { rowsOf } from '../../../test/import-rows'
import { refuseOverfullPassages } from '../rows'
import { readGift } from './gift'
import { readText } from './layout'
import { readMoodleXml } from './moodle-xml'

// API.md "Question types: passages, several right options, numbers", its Import bullet: Moodle XML's multiple answer
// and numerical, GIFT's numerical and weighted answers, and the Word layout's passages, on files written here.

const gift = (text: string) => rowsOf(readGift(text), 'gift')
const xml = (questions: string) =>
  rowsOf(readMoodleXml(`<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions}\n</quiz>\n`), 'moodle_xml')
const codes = (row: { messages: { code: string }[] }) => row.messages.map((message) => message.code)
const rightOf = (row: { question: { options: { is_correct: boolean }[] } }) =>
  row.question.options.map((option) => option.is_correct)

const answer = (fraction: number, text: string, extra = '') =>
  `<answer fraction="${fraction}" format="plain_text"><text>${text}</text>${extra}</answer>`
const multichoice = (single: string, answers: string) => `<question type="multichoice">
  <name><text>q</text></name>
  <questiontext format="html"><text>Which are prime?</text></questiontext>
  <single>${single}</single>
  ${answers}
</question>`
const numerical = (answers: string, feedback = '') => `<question type="numerical">
  <name><text>pi</text></name>
  <questiontext format="html"><text>Give pi to two decimals.</text></questiontext>
  <generalfeedback format="html"><text>${feedback}</text></generalfeedback>
  ${answers}
  <units><unit><multiplier>1</multiplier><unit_name>m</unit_name></unit></units>
</question>`

describe('Moodle XML multiple answer and numerical', () => {
  it('reads single false (and 0) as multiple, the options with a positive fraction right', async () => {
    const rows = await xml(
      ['false', '0']
        .map((single) => multichoice(single, answer(100, '2') + answer(0, '4') + answer(100, '3') + answer(-100, '9')))
        .join('\n'),
    )
    for (const row of rows) {
      expect(row.status).toBe('ok')
      expect(row.question.type).toBe('multiple')
      expect(rightOf(row)).toEqual([true, false, true, false])
      expect(row.hash).not.toBeNull()
    }
  })

  it("says that a split credit's partial marking is the paper section's, and imports the right set", async () => {
    const [row] = await xml(multichoice('false', answer(50, '2') + answer(50, '3') + answer(-50, '4')))
    expect(row!.status).toBe('fixed')
    expect(row!.messages).toEqual([
      {
        field: 'correct',
        code: 'partial_marking',
        message: expect.stringMatching(/50%, 50%.*partial marking is set on the paper's section/),
      },
    ])
    expect(rightOf(row!)).toEqual([true, true, false])
  })

  it('refuses a multiple answer question with no credited option, and one over 8 options', async () => {
    const [none, many] = await xml(
      multichoice('false', answer(0, '2') + answer(-50, '3')) +
        multichoice('false', [...'123456789'].map((digit) => answer(10, digit)).join('')),
    )
    expect(none!.status).toBe('rejected')
    expect(codes(none!)).toEqual(['no_correct'])
    expect(many!.status).toBe('rejected')
    expect(many!.messages).toContainEqual(
      expect.objectContaining({ field: 'options', message: 'A multiple question needs 2 to 8 options.' }),
    )
  })

  it('reads numerical as numeric: the first answer of fraction 100 with its tolerance', async () => {
    const [row] = await xml(
      numerical(
        answer(50, '3', '<tolerance>0.5</tolerance>') +
          answer(100, '3.14', '<tolerance>0.01</tolerance><feedback format="html"><text>Yes.</text></feedback>') +
          answer(100, '22/7', '<tolerance>0</tolerance>'),
      ),
    )
    expect(row!.question).toMatchObject({
      type: 'numeric',
      options: [],
      answer: { value: 3.14, tolerance: 0.01 },
      decimals: null,
      hint: { en: 'Yes.', ne: '' },
    })
    expect(row!.status).toBe('fixed')
    expect(codes(row!)).toEqual(['partial_credit_dropped'])
  })

  it('reads a numerical answer without a tolerance as exact, and refuses one with no full-credit answer', async () => {
    const [exact, none, star] = await xml(
      numerical(answer(100, '42')) + numerical(answer(50, '3')) + numerical(answer(100, '*')),
    )
    expect(exact!.status).toBe('ok')
    expect(exact!.question.answer).toEqual({ value: 42, tolerance: 0 })
    expect(none!.status).toBe('rejected')
    expect(none!.messages).toContainEqual(expect.objectContaining({ field: 'answer', code: 'no_correct' }))
    expect(star!.status).toBe('rejected')
    expect(star!.messages).toEqual([
      expect.objectContaining({ field: 'answer.value', code: 'invalid', message: expect.stringContaining('"*"') }),
    ])
  })
})

describe('GIFT numerical and weighted answers', () => {
  it('reads {#3.14:0.01}, {#1..5} and {#=3.14:0.01 =%50%3:0.5} as numeric', async () => {
    const [value, range, several, plain] = await gift(
      [
        'Pi to two decimals? {#3.14:0.01}',
        'A number from one to five? {#1..5}',
        'Pi? {#=3.14:0.01#Right. =%50%3:0.5#Close.}',
        'Minus two and a half? {#-2.5}',
      ].join('\n\n'),
    )
    expect(value!.status).toBe('ok')
    expect(value!.question).toMatchObject({ type: 'numeric', options: [], answer: { value: 3.14, tolerance: 0.01 } })
    expect(range!.question.answer).toEqual({ min: 1, max: 5 })
    expect(several!.question.answer).toEqual({ value: 3.14, tolerance: 0.01 })
    expect(several!.question.hint).toEqual({ en: 'Right.', ne: '' })
    expect(several!.status).toBe('fixed')
    expect(several!.messages).toEqual([
      expect.objectContaining({ code: 'partial_credit_dropped', message: expect.stringContaining('50%') }),
    ])
    expect(plain!.question.answer).toEqual({ value: -2.5, tolerance: 0 })
  })

  it('refuses a numerical answer that is not a number, and a range upside down, at their fields', async () => {
    const [word, upside] = await gift('Pi? {#pi:0.01}\n\nRange? {#5..1}')
    expect(word!.status).toBe('rejected')
    expect(word!.messages).toEqual([
      expect.objectContaining({ field: 'answer.value', code: 'invalid', message: expect.stringContaining('"pi"') }),
    ])
    expect(upside!.status).toBe('rejected')
    expect(upside!.messages).toEqual([
      expect.objectContaining({ field: 'answer.max', message: "The range's min must not be above its max." }),
    ])
  })

  it('reads ~%50% weights with no = as multiple, the positively weighted answers right', async () => {
    const [split, full] = await gift(
      'Pick the primes. {~%50%2 ~%50%3 ~%-100%4}\n\nPick the even ones. {~%100%2 ~%100%4 ~%-100%5}',
    )
    expect(split!.question.type).toBe('multiple')
    expect(rightOf(split!)).toEqual([true, true, false])
    expect(split!.status).toBe('fixed')
    expect(codes(split!)).toEqual(['partial_marking'])
    expect(full!.question.type).toBe('multiple')
    expect(full!.status).toBe('ok')
    expect(rightOf(full!)).toEqual([true, true, false])
  })

  it('keeps one = with ~%50% distractors a choice question, its partial credit dropped', async () => {
    const [row] = await gift('Largest planet? {=Jupiter ~%50%Saturn ~Mars}')
    expect(row!.question.type).toBeUndefined()
    expect(codes(row!)).toEqual(['partial_credit_dropped'])
  })
})

describe('passages in the Word layout', () => {
  const text = [
    'Passage: The Koshi is the largest river of Nepal.',
    'It floods the Terai in the monsoon.',
    '1. Which river is the largest?',
    'A. Koshi',
    'B. Bagmati',
    'Answer: A',
    '2. When does it flood?',
    'A. In winter',
    'B. In the monsoon',
    'Answer: B',
    'End of passage',
    '3. Which is the capital?',
    'A. Kathmandu',
    'B. Pokhara',
    'Answer: A',
    'अनुच्छेद: नेपालमा धेरै हिमाल छन्।',
    '४. सबैभन्दा अग्लो हिमाल कुन हो?',
    'क. सगरमाथा',
    'ख. कञ्चनजङ्घा',
    'उत्तर: क',
    'अनुच्छेद समाप्त',
  ].join('\n')

  it('gives the questions after a Passage paragraph that passage, until End of passage', async () => {
    const rows = await rowsOf(readText(text), 'text')
    expect(rows.map((row) => row.status)).toEqual(['ok', 'ok', 'ok', 'fixed'])
    const koshi = {
      text: { en: 'The Koshi is the largest river of Nepal.\nIt floods the Terai in the monsoon.', ne: '' },
    }
    expect(rows.map((row) => row.passage)).toEqual([
      koshi,
      koshi,
      null,
      { text: { en: '', ne: 'नेपालमा धेरै हिमाल छन्।' } },
    ])
    // The passage's lines are no question's text.
    expect(rows[0]!.question.text.en).toBe('Which river is the largest?')
    expect(rows[1]!.question.options.map((option) => option.text.en)).toEqual(['In winter', 'In the monsoon'])
  })

  it('refuses the rows of a passage past its 50th question, naming the limit', async () => {
    const many = [
      'Passage: One long passage.',
      ...Array.from({ length: 51 }, (_, n) => `${n + 1}. Question ${n + 1}?\nA. Yes\nB. No\nAnswer: A`),
    ].join('\n')
    const rows = await rowsOf(readText(many), 'text')
    refuseOverfullPassages(rows)
    expect(rows.slice(0, 50).every((row) => row.status === 'ok')).toBe(true)
    expect(rows[50]!.status).toBe('rejected')
    expect(rows[50]!.messages).toContainEqual(
      expect.objectContaining({ field: 'passage', message: 'A passage has at most 50 questions.' }),
    )
  })
})
