import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { RichText } from './rich-text'

// API.md "Tables in questions": the server sends a table in `html` (server/src/maths/render-maths.ts); the app draws
// it as a table whose cells a screen reader reads with their column's header, scrolling inside its own box.
const table =
  '<div class="q-table" tabindex="0" role="group"><table><thead><tr><th scope="col">Year</th>' +
  '<th scope="col" class="align-right">Exports</th></tr></thead><tbody>' +
  '<tr><td>2080</td><td class="align-right">&lt;12&gt;</td></tr></tbody></table></div>'
const text = {
  en: 'Which year?\n| Year | Exports |\n| --- | ---: |\n| 2080 | <12> |',
  ne: '',
  html: { en: `Which year?${table}`, ne: '' },
}

describe('a table in a question', () => {
  it('is a table with column headers, its cells escaped, in a box that takes focus to scroll', () => {
    const { container } = renderWithProviders(<RichText as="div" text={text} />)
    const drawn = screen.getByRole('table')
    expect(
      within(drawn)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Year', 'Exports'])
    expect(within(drawn).getByRole('cell', { name: '<12>' })).toHaveClass('align-right')
    expect(within(drawn).getAllByRole('columnheader')[0]).toHaveAttribute('scope', 'col')
    const box = container.querySelector('.q-table')!
    expect(box).toHaveAttribute('tabindex', '0')
    expect(box.contains(drawn)).toBe(true)
  })

  it('in a control, is drawn hidden with no focusable box, and the control is named by its pipe rows', () => {
    const { container } = renderWithProviders(
      <label>
        <input type="radio" name="q" />
        <RichText text={text} inControl />
      </label>,
    )
    expect(container.querySelector('[aria-hidden="true"] table')).not.toBeNull()
    expect(container.querySelector('[tabindex]')).toBeNull()
    expect(screen.getByRole('radio', { name: /^Which year\?\s+\| Year \| Exports \|/ })).toBeInTheDocument()
  })

  it('shown in its fallback language, carries that lang', () => {
    const { container } = renderWithProviders(<RichText as="div" text={text} />, { language: 'ne' })
    expect(container.querySelector('div.rich-text')).toHaveAttribute('lang', 'en')
  })
})
