// CSV as RFC 4180 writes it, made safe to open in a spreadsheet.

/** Excel reads a UTF-8 file as the local code page unless it starts with a byte-order mark. */
export const UTF8_BOM = '\uFEFF'
export const CSV_LINE_END = '\r\n'

// Formula starters (OWASP's "CSV injection"), a carriage return among them.
const FORMULA_START = /^[=+\-@\t\r]/
// `;` too: Excel in locales whose list separator is `;` (much of Europe) splits the file there, not at `,`.
const NEEDS_QUOTES = /[",;\r\n]/

export function csvCell(value: string | number | boolean | null): string {
  if (value === null) return ''
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  const text = FORMULA_START.test(value) ? `'${value}` : value
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvRow = (cells: readonly (string | number | boolean | null)[]) =>
  cells.map(csvCell).join(',') + CSV_LINE_END
