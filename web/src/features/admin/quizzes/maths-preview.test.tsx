import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../test/render'
import { QuestionForm } from './question-form'

function renderForm(language: 'en' | 'ne' = 'en') {
  renderWithProviders(<QuestionForm quizId={3} question={null} onSaved={vi.fn()} onCancel={vi.fn()} />, { language })
  return userEvent.setup()
}

/** The Field (label, control, message, footer) around a labelled control. */
const fieldOf = (label: string) => screen.getByLabelText(label).closest('.field') as HTMLElement

describe('the question form previews maths as it is typed', () => {
  it('shows no preview for a text without a $', async () => {
    const user = renderForm()
    await user.type(screen.getByLabelText('Question (English)'), 'What is half of ten?')
    expect(within(fieldOf('Question (English)')).queryByText('Preview')).toBeNull()
  })

  it('renders a fraction with KaTeX, and follows the text as it changes', async () => {
    const user = renderForm()
    const field = screen.getByLabelText('Question (English)')
    await user.click(field)
    await user.paste('What is $\\frac{1}{2}$ of <ten>?')
    const around = fieldOf('Question (English)')
    expect(within(around).getByText('Preview')).toBeInTheDocument()
    // KaTeX is loaded on first use: the preview appears once it has arrived.
    await waitFor(() => expect(around.querySelector('.maths-preview__text math mfrac')).not.toBeNull())
    const preview = around.querySelector('.maths-preview__text')!
    // The words around the formula are text, not markup.
    expect(preview.textContent).toContain('of <ten>?')
    expect(preview.querySelector('ten')).toBeNull()
    await user.paste(' $x^2$')
    expect(around.querySelector('.maths-preview__text math msup')).not.toBeNull()
  })

  it("shows KaTeX's message for TeX that does not parse, naming the formula, and the preview once it is fixed", async () => {
    const user = renderForm()
    const field = within(screen.getByRole('group', { name: 'Option 1' })).getByLabelText('Option text (English)')
    await user.click(field)
    await user.paste('$\\frac{1}$')
    const around = field.closest('.field') as HTMLElement
    const error = await within(around).findByText(
      /^The formula \$\\frac\{1\}\$ does not parse: Unexpected end of input/,
    )
    expect(error).toHaveClass('field__error')
    expect(around.querySelector('math')).toBeNull()
    await user.clear(field)
    await user.paste('$\\frac{1}{2}$')
    expect(around.querySelector('.maths-preview__text math mfrac')).not.toBeNull()
    expect(within(around).queryByText(/does not parse/)).toBeNull()
  })

  it('says how to write a dollar sign for an unmatched $, in Nepali too, and renders chemistry', async () => {
    const user = renderForm('ne')
    const field = screen.getByLabelText('प्रश्न (नेपाली)')
    await user.click(field)
    await user.paste('मूल्य $5')
    const around = field.closest('.field') as HTMLElement
    expect(await within(around).findByText('पूर्वावलोकन')).toBeInTheDocument()
    expect(within(around).getByText(/जोडा नमिलेको \$ ले कुनै सूत्र सुरु गर्दैन/)).toBeInTheDocument()
    await user.clear(field)
    await user.paste('$\\ce{2H2 + O2 -> 2H2O}$')
    expect(around.querySelector('.maths-preview__text math')).not.toBeNull()
    expect(around.querySelector('.maths-preview__text')).toHaveAttribute('lang', 'ne')
  })

  // Issue 41 L1: the browser's KaTeX would throw a RangeError out of the preview and take the form down.
  it.each([
    ['en', 'Question (English)', /is nested more than 50 groups deep/],
    ['ne', 'प्रश्न (नेपाली)', /भन्दा बढी तहसम्म/],
  ] as const)(
    'refuses TeX nested 2,000 deep with the reason (%s), where KaTeX overflowed the stack',
    async (language, label, reason) => {
      const user = renderForm(language)
      const field = screen.getByLabelText(label)
      await user.click(field)
      await user.paste(`$${'{'.repeat(2_000)}x${'}'.repeat(2_000)}$`)
      const around = field.closest('.field') as HTMLElement
      await waitFor(() => expect(around.querySelector('.maths-preview__error')).not.toBeNull())
      const error = around.querySelector('.maths-preview__error')!
      expect(error.textContent).toMatch(reason)
      expect(error).toHaveClass('field__error')
      expect(around.querySelector('math')).toBeNull()
    },
  )

  it('caps sizes as the server does, so a huge rule cannot cover the screen', async () => {
    const user = renderForm()
    const field = screen.getByLabelText('Question (English)')
    await user.click(field)
    await user.paste('$\\rule{99999em}{99999em}$')
    const around = fieldOf('Question (English)')
    await waitFor(() => expect(around.querySelector('.maths-preview__text mspace')).not.toBeNull())
    expect(around.querySelector('.maths-preview__text mspace')?.getAttribute('width')).toBe('20em')
  })

  it('draws a table of pipe rows with its headers and maths in a cell, and names a malformed one, in Nepali too', async () => {
    const user = renderForm()
    const field = screen.getByLabelText('Question (English)')
    await user.click(field)
    await user.paste('Exports:\n| Year | Tonnes |\n|---|---:|\n| 2080 | $x^2$ |')
    const around = fieldOf('Question (English)')
    await waitFor(() => expect(around.querySelector('.maths-preview__text table')).not.toBeNull())
    const table = within(around).getByRole('table')
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Year', 'Tonnes'])
    expect(table.querySelector('td.align-right math msup')).not.toBeNull()
    await user.paste('\n| 2081 |')
    expect(within(around).getByText('Table 1, row 2 has 1 cells where its header has 2.')).toHaveClass('field__error')
  })

  it("previews a written question's model answer as its text is previewed (issue 73)", async () => {
    const user = renderForm()
    await user.click(screen.getByRole('radio', { name: 'Written answer' }))
    await user.click(screen.getByLabelText('Model answer (English)'))
    await user.paste('| Year | Tonnes |\n|---|---:|\n| 2080 | $x^2$ |')
    const around = fieldOf('Model answer (English)')
    await waitFor(() => expect(around.querySelector('.maths-preview__text table math msup')).not.toBeNull())
    await user.paste('\n| 2081 |')
    expect(within(around).getByText('Table 1, row 2 has 1 cells where its header has 2.')).toHaveClass('field__error')
  })

  it('names a table without its header line in Nepali', async () => {
    const user = renderForm('ne')
    const field = screen.getByLabelText('प्रश्न (नेपाली)')
    await user.click(field)
    await user.paste('| क | ख |\n| १ | २ |')
    expect(await within(fieldOf('प्रश्न (नेपाली)')).findByText(/^तालिका १ मा शीर्ष रेखा छैन/)).toHaveClass('field__error')
  })
})
