import { describe, expect, it } from 'vitest'
import { csvCell, csvRow } from './csv'

describe('CSV cells', () => {
  it('quotes a cell holding the separator of either locale, a quote or a line break', () => {
    expect(csvCell('Sharma; Ram')).toBe('"Sharma; Ram"')
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
    expect(csvCell('plain')).toBe('plain')
    expect(csvRow(['x;y', 3, null])).toBe('"x;y",3,\r\n')
  })

  it('neutralises formula starters', () => {
    expect(csvCell('=1+1')).toBe("'=1+1")
    expect(csvCell('=A1;B1')).toBe(`"'=A1;B1"`)
  })
})
