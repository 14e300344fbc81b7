import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { LangRuns } from './lang-runs'

const marked = (container: HTMLElement) =>
  [...container.querySelectorAll('span[lang]')].map((s) => [s.getAttribute('lang'), s.textContent])

describe('LangRuns', () => {
  it('marks Devanagari quoted in an English text as Nepali, each run whole', () => {
    const { container } = renderWithProviders(<LangRuns text="An answer line: Answer: B, उत्तर: ख or सही उत्तर: (ख)." />)
    expect(container.textContent).toBe('An answer line: Answer: B, उत्तर: ख or सही उत्तर: (ख).')
    expect(marked(container)).toEqual([
      ['ne', 'उत्तर: ख'],
      ['ne', 'सही उत्तर: (ख'],
    ])
  })

  it('marks English quoted in a Nepali text as English', () => {
    const { container } = renderWithProviders(<LangRuns text="उत्तर लाइन: Answer: B वा उत्तर: ख" />, { language: 'ne' })
    expect(marked(container)).toEqual([['en', 'Answer: B']])
  })
})
