import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { LangRuns } from './lang-runs'
import { scriptLang } from '../../i18n/use-bilingual'
import { languageFindings } from '../../test/lang-of-parts'

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

describe('scriptLang, for a text of no stated language (a topic)', () => {
  it('gives the script’s language when it is not the page’s, in both directions, and none for a mixed text', () => {
    expect(scriptLang('geography', 'ne')).toBe('en')
    expect(scriptLang('भूगोल', 'en')).toBe('ne')
    expect(scriptLang('geography', 'en')).toBeUndefined()
    expect(scriptLang('भूगोल', 'ne')).toBeUndefined()
    expect(scriptLang('GK सामान्य ज्ञान', 'en')).toBeUndefined()
    expect(scriptLang(null, 'ne')).toBeUndefined()
  })
})

describe('languageFindings, the audit of issue 61', () => {
  it('finds English in a Nepali page and Devanagari in an English one, and none once they carry lang', () => {
    const page = document.createElement('div')
    page.innerHTML =
      '<p>विषय</p><p>geography</p><p>Type <b>उत्तर: ख</b></p><p lang="en">geography</p><p>OTP पठाउनुहोस्</p>'
    expect(languageFindings(page, 'ne')).toEqual(['geography', 'Type'])
    expect(languageFindings(page, 'en')).toEqual(['विषय', 'उत्तर: ख', 'OTP पठाउनुहोस्'])
  })
})
