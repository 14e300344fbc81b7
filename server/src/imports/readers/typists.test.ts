import type { LegacyFontChoice } from '@quiz/contracts'
import { describe, expect, it } from 'vitest'
import { docxFile, type DocxBlock } from '../../../test/fixtures/import-files.fixtures'
import { convertFontRuns, convertTextLines } from '../legacy'
import { buildRow } from '../rows'
import { readInput } from '.'

// API.md "Typists' habits" and "Fidelity": answer lines as typists write them, in Unicode and typed in Preeti, in
// pasted text and in a Word file; and more options than the bank holds counted, never folded.

async function dryRun(input: Parameters<typeof readInput>[0], legacyFont: LegacyFontChoice = 'auto') {
  const { format, drafts } = await readInput(
    input,
    (runs) => convertFontRuns(runs, legacyFont),
    (lines) => convertTextLines(lines, legacyFont),
  )
  return Promise.all(
    drafts.map((draft) => buildRow(draft, { format, legacyFont, defaults: { tags: [] }, pictureKey: 'test' })),
  )
}
const pasted = (text: string, legacyFont?: LegacyFontChoice) => dryRun({ file: null, text, format: 'text' }, legacyFont)
const word = (blocks: DocxBlock[]) =>
  dryRun({ file: { bytes: docxFile(blocks), name: 'questions.docx' }, text: null, format: undefined })
const correctIndex = (row: { question: { options: { is_correct: boolean }[] } }) =>
  row.question.options.findIndex((option) => option.is_correct)

// Four questions as an office typist writes them, each answer line in another habit.
const answerLines = ['उत्तरः (क)', 'उत्तर:- ख', 'सही उत्तरः ग', 'उत्तरः घ']
const unicodeQuestions = answerLines.flatMap((answer, n) => [
  `${n + 1}. नेपालको प्रश्न ${n + 1} कुन हो?`,
  '(क) पहिलो',
  '(ख) दोस्रो',
  '(ग) तेस्रो',
  '(घ) चौथो',
  answer,
])

// Preeti `pQ/M -s_` shows as उत्तरः (क); `;xL pQ/M u` as सही उत्तरः ग.
const preeti = [
  ["!= g]kfnsf] /fhwfgL s'g xf] <", '-s_ sf7df8f}+', '-v_ kf]v/f', '-u_ lj/f6gu/', "-3_ hgsk'/", 'pQ/M -s_'],
  ["@= ;a}eGbf cUnf] lxdfn s'g xf] <", "-s_ dsfn'", '-v_ ;u/dfyf', '-u_ sf~rgh+3f', '-3_ wf}nflul/', 'pQ/M -v_'],
  ["#= g]kfnsf] /fli6«o kmn s'g xf] <", '-s_ cfFk', '-v_ sfunf', "-u_ nfnLu'/fF;", '-3_ dx]Gb|', ';xL pQ/M u'],
  ["$= g]kfnsf] /fli6«o hgfj/ s'g xf] <", '-s_ af3', '-v_ u}+8f', '-u_ xfQL', '-3_ ufO{', 'pQ/M -3_'],
].flat()

describe('answer lines as typists write them', () => {
  it('reads उत्तरः, उत्तर:-, सही उत्तरः in pasted Unicode text', async () => {
    const rows = await pasted(unicodeQuestions.join('\n'))
    expect(rows.map((row) => row.status)).toEqual(['fixed', 'ok', 'ok', 'ok'])
    expect(rows.map(correctIndex)).toEqual([0, 1, 2, 3])
    expect(rows.map((row) => row.question.options.length)).toEqual([4, 4, 4, 4])
    expect(rows[3]!.question.options[3]!.text.ne).toBe('चौथो')
  })

  it('reads Ans:-, Answer -, Ans.: and an answer word without a separator', async () => {
    const rows = await pasted(
      [
        ['1. One?', 'A. x', 'B. y', 'Ans:- b'],
        ['2. Two?', 'A. x', 'B. y', 'Answer - A'],
        ['3. Three?', 'A. x', 'B. y', 'Ans.: B'],
        ['4. Four?', '(a) x', '(b) y', 'Answer (a)'],
      ]
        .flat()
        .join('\n'),
    )
    expect(rows.map(correctIndex)).toEqual([1, 0, 1, 0])
    expect(rows.map((row) => row.question.options.map((option) => option.text.en))).toEqual([
      ['x', 'y'],
      ['x', 'y'],
      ['x', 'y'],
      ['x', 'y'],
    ])
  })

  it('never lets a line starting with an answer word continue the option before it', async () => {
    const rows = await pasted(
      ['1. One?', 'A. x', 'B. y', 'Answer all questions in this part.', '2. Two?', 'A. p', 'B. q', 'Answer: A'].join(
        '\n',
      ),
    )
    expect(rows[0]!.question.options[1]!.text.en).toBe('y')
    expect(rows[0]!.messages.map((message) => message.code)).toEqual(['no_correct'])
    expect(rows[1]!.status).toBe('ok')
  })

  it('reads a Word file of four such questions in Unicode', async () => {
    const rows = await word(unicodeQuestions.map((line) => [{ text: line, font: 'Kalimati' }]))
    expect(rows.map(correctIndex)).toEqual([0, 1, 2, 3])
    expect(rows.every((row) => row.status !== 'rejected')).toBe(true)
  })

  it('reads a Word file of four such questions typed in Preeti', async () => {
    const rows = await word(preeti.map((line) => [{ text: line, font: 'Preeti' }]))
    expect(rows).toHaveLength(4)
    expect(rows.map(correctIndex)).toEqual([0, 1, 2, 3])
    expect(rows.map((row) => row.question.options.length)).toEqual([4, 4, 4, 4])
    expect(rows.map((row) => row.status)).toEqual(['fixed', 'fixed', 'fixed', 'fixed'])
    expect(rows[0]!.question.text.ne).toMatch(/^नेपालको राजधानी/)
    expect(rows[0]!.question.options[3]!.text.ne).not.toMatch(/उत्तर/)
  })

  it('reads the same questions pasted as Preeti text when the font is chosen, listing each conversion', async () => {
    const rows = await pasted(preeti.join('\n'), 'preeti')
    expect(rows).toHaveLength(4)
    expect(rows.map(correctIndex)).toEqual([0, 1, 2, 3])
    expect(rows.map((row) => row.status)).toEqual(['fixed', 'fixed', 'fixed', 'fixed'])
    expect(rows[0]!.converted[0]).toMatchObject({ field: 'text', unicode: expect.stringMatching(/^नेपालको राजधानी/) })
  })

  it('reads a paste typed wholly in Preeti under auto as well', async () => {
    const rows = await pasted(preeti.join('\n'))
    expect(rows.map(correctIndex)).toEqual([0, 1, 2, 3])
    expect(rows.map((row) => row.status)).toEqual(['fixed', 'fixed', 'fixed', 'fixed'])
    expect(rows[1]!.question.text.ne).toMatch(/^सबैभन्दा अग्लो हिमाल/)
  })

  it('leaves English and code pasted under auto as typed', async () => {
    const [row] = await pasted(['1. Which is a && b || !c?', 'A. {x}', 'B. #y', 'Answer: A'].join('\n'))
    expect(row!.status).toBe('ok')
    expect(row!.question.options.map((option) => option.text.en)).toEqual(['{x}', '#y'])
  })

  it('leaves English text alone under an explicit Preeti choice when the text does not read as Preeti', async () => {
    const [row] = await pasted(['1. Capital of Nepal?', 'A. Kathmandu', 'B. Pokhara', 'Answer: A'].join('\n'), 'preeti')
    expect(row!.status).toBe('ok')
    expect(row!.question.options[0]!.text.en).toBe('Kathmandu')
  })
})

describe('more options than the bank holds', () => {
  const eleven = (markers: string[]) =>
    ['1. Which?', ...markers.map((marker, n) => `${marker} option ${n + 1}`), 'Answer: A'].join('\n')

  it.each([
    ['A) … K)', 'ABCDEFGHIJK'.split('').map((letter) => `${letter})`)],
    ['(a) … (k)', 'abcdefghijk'.split('').map((letter) => `(${letter})`)],
    ['क … ट', ['क', 'ख', 'ग', 'घ', 'ङ', 'च', 'छ', 'ज', 'झ', 'ञ', 'ट'].map((letter) => `${letter}.`)],
  ])('refuses 11 options lettered %s, naming the count', async (_name, markers) => {
    const [row] = await pasted(eleven(markers))
    expect(row!.status).toBe('rejected')
    expect(row!.question.options).toHaveLength(11)
    expect(row!.question.options[9]!.text.en).toBe('option 10')
    expect(row!.messages).toEqual([
      expect.objectContaining({ code: 'option_count', message: expect.stringContaining('11 options') }),
    ])
  })

  it('keeps a line like "T. S. Eliot" in the option it continues', async () => {
    const [row] = await pasted(
      ['1. Who wrote it?', 'A. Frost', 'B. The poet', 'T. S. Eliot, that is', 'Answer: A'].join('\n'),
    )
    expect(row!.question.options.map((option) => option.text.en)).toEqual(['Frost', 'The poet\nT. S. Eliot, that is'])
  })
})
