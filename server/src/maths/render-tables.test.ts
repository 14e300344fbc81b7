import { describe, expect, it } from 'vitest'
import { checkMaths } from './check-maths'
import { renderMaths } from './render-maths'
import { renderBilingual, richText } from './rich-text'
import { splitTables, tableLimits } from '@quiz/contracts/rules/pipe-tables'

const rendered = (source: string) => {
  const result = renderMaths(source)
  if (!result.ok) throw new Error(result.problem)
  return result.rendered
}
const problem = (source: string) => {
  const result = renderMaths(source)
  return result.ok ? null : result.problem
}
const table = (columns: number, rows: number) =>
  [
    `|${' h |'.repeat(columns)}`,
    `|${'---|'.repeat(columns)}`,
    ...Array.from({ length: rows }, () => `|${' c |'.repeat(columns)}`),
  ].join('\n')

describe('tables in a text (API.md "Tables in questions")', () => {
  it('renders pipe rows into a table with column headers, the text around it kept', () => {
    const result = rendered(
      'Exports by year:\n| Year | Exports |\n|---|---:|\n| 2080 | 12 |\n| 2081 | 15 |\nWhich grew?',
    )
    expect(result?.html).toBe(
      'Exports by year:' +
        '<div class="q-table" tabindex="0" role="group"><table><thead><tr><th scope="col">Year</th>' +
        '<th scope="col" class="align-right">Exports</th></tr></thead><tbody>' +
        '<tr><td>2080</td><td class="align-right">12</td></tr><tr><td>2081</td><td class="align-right">15</td></tr>' +
        '</tbody></table></div>Which grew?',
    )
    expect(result?.plain).toBe(
      'Exports by year:\n| Year | Exports |\n| --- | ---: |\n| 2080 | 12 |\n| 2081 | 15 |\nWhich grew?',
    )
  })

  it('aligns columns left, centre and right by the colons of the header line', () => {
    const html = rendered('| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | 2 | 3 | 4 |')?.html
    expect(html).toContain('<th scope="col" class="align-left">a</th><th scope="col" class="align-center">b</th>')
    expect(html).toContain('<td class="align-right">3</td><td>4</td>')
  })

  it('escapes every cell, and reads \\| as a pipe inside a cell', () => {
    const html = rendered('| <b>x</b> | a \\| b |\n|---|---|\n| "q" & \'r\' | <script> |')?.html
    expect(html).toContain('<th scope="col">&lt;b&gt;x&lt;/b&gt;</th><th scope="col">a | b</th>')
    expect(html).toContain('<td>&quot;q&quot; &amp; &#39;r&#39;</td><td>&lt;script&gt;</td>')
    expect(html).not.toContain('<script>')
  })

  it('renders maths inside cells, a | inside a formula staying the formula’s, and learners read no TeX', () => {
    const result = rendered('| x | $|x|$ |\n|---|---|\n| 2 | $\\frac{1}{2}$ |')
    expect(result?.html).toContain('<th scope="col"><span class="katex"><math')
    expect(result?.html.match(/<td>/g)).toHaveLength(2)
    expect(result?.plain).toContain('| 2 | 1/2 |')
    expect(result?.plain).not.toMatch(/\$|\\frac/)
  })

  it('leaves one line between pipes as text (|x| = 3), and a text without tables or maths with no html', () => {
    expect(rendered('If |x| = 3, what is x?')).toBeNull()
    expect(rendered('|x| = 3|')).toBeNull()
    expect(renderBilingual({ en: 'No table here', ne: '' })).toBeNull()
  })

  it('gives both languages html when one holds a table, as maths does', () => {
    const text = renderBilingual({ en: '| a | b |\n|---|---|\n| 1 | 2 |', ne: 'तालिका <हेर्नुहोस्>' })
    expect(text?.html.ne).toBe('तालिका &lt;हेर्नुहोस्&gt;')
    expect(richText({ en: 'x', ne: 'y' }, text!, 'admin')).toMatchObject({ en: 'x', ne: 'y' })
  })

  it('refuses rows of differing lengths, naming the row', () => {
    expect(problem('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 |')).toBe('Table 1, row 2 has 1 cells where its header has 2.')
    expect(problem('| a | b |\n|---|\n| 1 | 2 |')).toMatch(/header line has 1 cells/)
  })

  it('refuses rows with no header line', () => {
    expect(problem('| a | b |\n| 1 | 2 |')).toBe(
      'Table 1 has no header line: its second row must be a line such as |---|---|.',
    )
  })

  it('holds a table to 30 rows and 8 columns and a text to 4 tables', () => {
    expect(problem(table(8, tableLimits.maxRows))).toBeNull()
    expect(problem(table(2, 31))).toBe('Table 1 has 31 rows; a table may have at most 30.')
    expect(problem(table(9, 1))).toBe('Table 1 has 9 columns; a table may have at most 8.')
    const four = Array.from({ length: 4 }, () => table(2, 1)).join('\ntext\n')
    expect(problem(four)).toBeNull()
    expect(problem(`${four}\nand\n${table(2, 1)}`)).toBe('This text holds 5 tables; a text may hold at most 4.')
  })

  it('reports a bad table at its path, as a bad formula is', () => {
    expect(checkMaths([['options.1.text.ne', '| a |\n| b |']])).toEqual({
      'options.1.text.ne': ['Table 1 has no header line: its second row must be a line such as |---|---|.'],
    })
  })

  it('splits cells past escaped dollars and leaves an unmatched $ to the maths check', () => {
    expect(splitTables('| \\$5 | b |\n|---|---|\n| 1 | 2 |')).toMatchObject({
      ok: true,
      blocks: [{ kind: 'table', table: { header: ['\\$5', 'b'] } }],
    })
    expect(problem('| $5 | b |\n|---|---|\n| 1 | 2 |')).toMatch(/unmatched \$/)
  })
})
