import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { convertTextLines } from './legacy'
import { readInput, guessTextFormat, hasGiftAnswers, type ImportInput } from './readers'
import { htmlToText } from './readers/html'
import { MAX_LINES_PER_QUESTION } from './readers/layout'
import { moodleMaths, isCloze } from './readers/moodle-text'
import { namedRowErrors, type HashedRow } from './rows'
import { xlsxFile } from '../../test/fixtures/import-files.fixtures'
import { measureWork } from '../../test/fixtures/work-meter.fixtures'

// Issue 41, M2: each reader's work grows in proportion to its input. Every reproduction of the review is measured at
// a size and at twice that size, in counted steps (work-meter.fixtures.ts), never in time: linear work doubles,
// quadratic work quadruples. The bound, 2.6 times, leaves room for fixed costs that do not double.

const LINEAR = 2.6

async function growth(make: (n: number) => () => unknown, n: number) {
  const once = await measureWork(make(n))
  const twice = await measureWork(make(2 * n))
  return twice.steps / once.steps
}

const read = (input: Partial<ImportInput>) => () =>
  readInput({ file: null, text: null, format: undefined, ...input } as ImportInput)
const docx = (paragraphs: string[]) =>
  zipSync({
    'word/document.xml': strToU8(
      `<?xml version="1.0"?><w:document xmlns:w="w"><w:body>${paragraphs
        .map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`)
        .join('')}</w:body></w:document>`,
    ),
  })
const questionAndLines = (lines: number) => ['1. Which one?', ...Array.from({ length: lines }, () => 'x')]

describe('import readers work in time linear in their input', () => {
  it('a .docx of one question and many short paragraphs (23 s for 30,000 before)', async () => {
    const make = (n: number) => read({ file: { bytes: docx(questionAndLines(n)), name: 'q.docx' } })
    expect(await growth(make, 400)).toBeLessThan(LINEAR)
    // Past the cap of lines a question may run over, the file is refused at that line, not read on.
    await expect(make(30_000)()).rejects.toThrow(/more than 1,000 lines: a question number is probably missing/)
  })

  it('many questions of many lines each, in a .docx and pasted', async () => {
    const lines = (questions: number) =>
      Array.from({ length: questions }, (_, q) => [`${q + 1}. Q${q}`, ...Array.from({ length: 200 }, () => 'x')]).flat()
    expect(await growth((n) => read({ file: { bytes: docx(lines(n)), name: 'q.docx' } }), 5)).toBeLessThan(LINEAR)
    expect(await growth((n) => read({ text: lines(n).join('\n'), format: 'text' }), 10)).toBeLessThan(LINEAR)
  })

  it('pasted text (7 s for 40 KB before), with its line cap', async () => {
    expect(await growth((n) => read({ text: questionAndLines(n).join('\n'), format: 'text' }), 400)).toBeLessThan(
      LINEAR,
    )
    await expect(read({ text: questionAndLines(MAX_LINES_PER_QUESTION + 1).join('\n') })()).rejects.toThrow(
      /runs over more than/,
    )
    await expect(read({ text: questionAndLines(MAX_LINES_PER_QUESTION).join('\n') })()).resolves.toMatchObject({
      format: 'text',
    })
  })

  it('pasted text typed in Preeti, through the legacy-font converter', async () => {
    const make = (n: number) => () =>
      readInput(
        { file: null, text: Array(n).fill("!= efg'eQm\nc= nf]s\nb= ;]jf\npQ/M c").join('\n'), format: 'text' },
        undefined,
        (lines) => convertTextLines(lines, 'preeti'),
      )
    expect(await growth(make, 200)).toBeLessThan(LINEAR)
  })

  it('Moodle XML (5.6 s for 200 KB before: each question line counted from the start)', async () => {
    const xml = (n: number) =>
      `<?xml version="1.0"?>\n<quiz>\n${Array.from(
        { length: n },
        (_, i) =>
          `<question type="multichoice">\n<questiontext format="html"><text><![CDATA[<p>Q ${i}</p>]]></text></questiontext>\n<answer fraction="100"><text>a</text></answer>\n<answer fraction="0"><text>b</text></answer>\n</question>\n`,
      ).join('')}</quiz>`
    expect(await growth((n) => read({ text: xml(n), format: 'moodle_xml' }), 500)).toBeLessThan(LINEAR)
  })

  it('guessing the format of text (1.8 s before: an unanchored expression over the whole paste)', async () => {
    expect(await growth((n) => () => guessTextFormat('\n{ '.repeat(n)), 5000)).toBeLessThan(LINEAR)
    expect(await growth((n) => () => guessTextFormat('{'.repeat(n) + '='), 5000)).toBeLessThan(LINEAR)
    // Unclosed comments before <quiz> backtracked exponentially in the head's expression.
    expect(guessTextFormat('<!-- -->'.repeat(400) + '<quiz>')).toBe('moodle_xml')
    expect(guessTextFormat('<!--'.repeat(1000))).toBe('text')
    expect(guessTextFormat('::T:: What? {=yes ~no}')).toBe('gift')
    expect(hasGiftAnswers('a {b} {=c}')).toBe(false)
    expect(guessTextFormat('What?\nA. x\nB. y\nANSWER: A')).toBe('aiken')
  })

  it('GIFT, its braces open over blank lines', async () => {
    const gift = (n: number) => `Q {\n${'=a\n\n'.repeat(n)}}`
    expect(await growth((n) => read({ text: gift(n), format: 'gift' }), 200)).toBeLessThan(LINEAR)
    const many = (n: number) => Array.from({ length: n }, (_, i) => `Q${i} {=a ~b}`).join('\n\n')
    expect(await growth((n) => read({ text: many(n), format: 'gift' }), 500)).toBeLessThan(LINEAR)
  })

  it('Aiken', async () => {
    const aiken = (n: number) => Array.from({ length: n }, (_, i) => `Q${i}\nA. x\nB. y\nANSWER: A`).join('\n\n')
    expect(await growth((n) => read({ text: aiken(n), format: 'aiken' }), 500)).toBeLessThan(LINEAR)
  })

  it('CSV and xlsx', async () => {
    const csv = (n: number) => `question_en,option_a_en,option_b_en,correct\n${'Q,a,b,A\n'.repeat(n)}`
    expect(await growth((n) => read({ text: csv(n), format: 'csv' }), 500)).toBeLessThan(LINEAR)
    const sheet = async (n: number) =>
      xlsxFile([
        ['question_en', 'option_a_en', 'option_b_en', 'correct'],
        ...Array.from({ length: n }, (_, i) => [`Q${i}`, 'a', 'b', 'A']),
      ])
    const small = await sheet(200)
    const large = await sheet(400)
    const once = await measureWork(read({ file: { bytes: small, name: 'q.xlsx' } }))
    const twice = await measureWork(read({ file: { bytes: large, name: 'q.xlsx' } }))
    expect(twice.steps / once.steps).toBeLessThan(LINEAR)
  })

  it('HTML, Moodle maths and Cloze tests over hostile text', async () => {
    for (const unit of ['<', '<script>', '<style a', ' ', ' \t', '&amp', '<br', '</p>'])
      expect(await growth((n) => () => htmlToText(`${unit.repeat(n)}x`), 2000), unit).toBeLessThan(LINEAR)
    for (const unit of ['\\(', '\\[', '$$', '$', '\\$', '\\'])
      expect(await growth((n) => () => moodleMaths(unit.repeat(n)), 2000), unit).toBeLessThan(LINEAR)
    expect(moodleMaths('\\(x\\) costs $5 and $$y$$ \\[z\\] \\$').text).toBe('$x$ costs \\$5 and $$y$$ $$z$$ \\$')
    expect(htmlToText('<p>a &lt; b</p><script>x</script>c  \n<b>d')).toBe('a < b\nc\nd')
    expect(isCloze('{1:MULTICHOICE:=a~b}')).toBe(true)
    expect(isCloze(`{${' '.repeat(20_000)}x`)).toBe(false)
  })

  it('a commit naming 100,000 rows checks each against a Set (2.4 s before)', async () => {
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ row: i + 1, status: i % 2 ? 'ok' : 'rejected' }) as HashedRow)
    const make = (n: number) => {
      const dryRun = rows(n)
      const named = Array.from({ length: 20 * n }, (_, i) => i + 1)
      return () => namedRowErrors(dryRun, named)
    }
    expect(await growth(make, 2500)).toBeLessThan(LINEAR)
    expect(Object.keys(namedRowErrors(rows(4), [1, 2, 9]))).toEqual(['rows.0', 'rows.2'])
  })
})
