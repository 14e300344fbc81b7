import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { SectionName } from './section-tabs'

describe('a section name', () => {
  it('carries the language of a title shown in the other language than the page', () => {
    renderWithProviders(<SectionName section={{ title: { en: 'General Knowledge', ne: '' } }} index={0} />, {
      language: 'ne',
    })
    expect(screen.getByText('General Knowledge')).toHaveAttribute('lang', 'en')
  })

  it('carries no language of its own in the page language, and names an untitled section by its number', () => {
    const { container } = renderWithProviders(
      <>
        <SectionName section={{ title: { en: 'Maths', ne: 'गणित' } }} index={0} />
        <SectionName section={{ title: { en: '', ne: '' } }} index={1} />
      </>,
      { language: 'en' },
    )
    expect(container).toHaveTextContent('MathsSection 2')
    expect(container.querySelector('[lang]')).toBeNull()
  })
})
