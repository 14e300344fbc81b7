import { screen } from '@testing-library/react'
import katex from 'katex'
import 'katex/contrib/mhchem'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../test/render'
import { RichPreview, RichText } from './rich-text'

// The html the server stores: KaTeX's MathML alone, the words around it escaped (server/src/maths/render-maths.ts).
const mathml = (tex: string) => katex.renderToString(tex, { output: 'mathml', throwOnError: true, strict: 'ignore' })
const half = {
  en: 'What is 1/2 of <ten>?',
  ne: '<दस> को 1/2 कति हो?',
  html: {
    en: `What is ${mathml('\\frac{1}{2}')} of &lt;ten&gt;?`,
    ne: `&lt;दस&gt; को ${mathml('\\frac{1}{2}')} कति हो?`,
  },
}

describe('RichText', () => {
  it('shows the rendered maths, never the TeX source, and escapes nothing twice', () => {
    const { container } = renderWithProviders(<RichText as="p" text={half} />)
    const paragraph = container.querySelector('p.rich-text')!
    expect(paragraph.querySelector('math mfrac')).not.toBeNull()
    // jsdom draws no MathML, so the TeX annotation inside it is text here; a browser hides it (e2e/maths.e2e.ts).
    paragraph.querySelectorAll('annotation').forEach((annotation) => annotation.remove())
    expect(paragraph.textContent).not.toMatch(/\$|\\frac/)
    expect(paragraph.textContent).toContain('of <ten>?')
  })

  it('shows the Nepali html in Nepali', () => {
    const { container } = renderWithProviders(<RichText text={half} />, { language: 'ne' })
    expect(container.querySelector('span.rich-text math')).not.toBeNull()
    expect(container.textContent).toContain('<दस> को')
  })

  it('falls back to English where the text has no Nepali, as every bilingual text does', () => {
    const englishOnly = { en: 'Area x2', ne: '', html: { en: `Area ${mathml('x^2')}`, ne: '' } }
    const { container } = renderWithProviders(<RichText text={englishOnly} />, { language: 'ne' })
    expect(container.querySelector('math msup')).not.toBeNull()
    expect(container.textContent).toContain('Area')
  })

  it('names each formula by its spoken reading, since TalkBack skips MathML', async () => {
    const quadratic = {
      en: 'Solve x2 + 5x + 6 = 0',
      ne: '',
      html: { en: `Solve ${mathml('x^2 + 5x + 6 = 0')}`, ne: '' },
    }
    renderWithProviders(<RichText as="p" text={quadratic} />)
    const formula = await screen.findByRole('img', { name: 'x² + 5x + 6 = 0' })
    expect(formula.querySelector('math msup')).not.toBeNull()
  })

  it('marks an English fallback lang="en" on a Nepali screen', async () => {
    const englishOnly = { en: 'Area x2', ne: '', html: { en: `Area ${mathml('x^2')}`, ne: '' } }
    const { container } = renderWithProviders(<RichText as="p" text={englishOnly} />, { language: 'ne' })
    expect(container.querySelector('p')).toHaveAttribute('lang', 'en')
    expect(await screen.findByRole('img', { name: 'x²' })).toBeInTheDocument()
  })

  it('shows a text without maths as plain text, markup in it as characters', () => {
    const plain = { en: '<b>5</b> apples', ne: '५ स्याउ', html: null }
    renderWithProviders(<RichText text={plain} />)
    expect(screen.getByText('<b>5</b> apples')).toBeInTheDocument()
    expect(document.querySelector('b')).toBeNull()
  })

  it('in a control, draws the formulas hidden from assistive technology and names the control by the plain reading', () => {
    renderWithProviders(
      <label>
        <input type="radio" name="q" />
        <RichText text={half} inControl />
      </label>,
    )
    const radio = screen.getByRole('radio', { name: 'What is 1/2 of <ten>?' })
    const drawn = radio.parentElement!.querySelector('[aria-hidden="true"]')!
    expect(drawn.querySelector('math mfrac')).not.toBeNull()
  })

  it('previews a text with maths whole (formulas cannot be cut), clipped by CSS; one without maths cut to length', () => {
    const long = { en: 'x'.repeat(100), ne: '', html: null }
    const { container } = renderWithProviders(
      <>
        <RichPreview text={half} maxLength={5} />
        <span data-testid="plain">
          <RichPreview text={long} maxLength={10} />
        </span>
      </>,
    )
    expect(container.querySelector('.rich-text--clamp math mfrac')).not.toBeNull()
    expect(screen.getByTestId('plain')).toHaveTextContent(/^x{10}\.\.\.$/)
  })

  describe('in the other language than the page (a fallback)', () => {
    const englishOnly = { en: 'Which river is the longest?', ne: '', html: null }
    const nepaliOnly = { en: '', ne: 'सबैभन्दा लामो नदी कुन हो?', html: null }

    it('carries lang="en" on a Nepali page showing an English-only question', () => {
      renderWithProviders(<RichText as="p" text={englishOnly} />, { language: 'ne' })
      expect(screen.getByText('Which river is the longest?')).toHaveAttribute('lang', 'en')
    })

    it('carries lang="ne" on an English page showing a Nepali-only text, with maths and in a control too', () => {
      const nepaliMaths = { en: '', ne: half.ne, html: { en: '', ne: half.html.ne } }
      const { container } = renderWithProviders(
        <>
          <RichText as="p" text={nepaliOnly} />
          <RichText as="p" text={nepaliMaths} className="maths" />
          <label>
            <input type="radio" name="q" />
            <RichText text={nepaliMaths} inControl className="option" />
          </label>
        </>,
      )
      expect(screen.getByText('सबैभन्दा लामो नदी कुन हो?')).toHaveAttribute('lang', 'ne')
      expect(container.querySelector('p.maths')).toHaveAttribute('lang', 'ne')
      expect(container.querySelector('span.option')).toHaveAttribute('lang', 'ne')
    })

    it('carries no lang when the text is in the page language', () => {
      const { container } = renderWithProviders(
        <>
          <RichText as="p" text={englishOnly} />
          <RichText as="p" text={half} />
        </>,
      )
      expect(container.querySelectorAll('[lang]')).toHaveLength(0)
    })

    it('carries no lang on a Nepali page showing the Nepali of a text that has both', () => {
      const { container } = renderWithProviders(<RichText as="p" text={half} />, { language: 'ne' })
      expect(container.querySelectorAll('[lang]')).toHaveLength(0)
    })

    it('marks a preview shown in the other language, and adds no element to one in the page language', () => {
      const { container } = renderWithProviders(
        <>
          <span data-testid="fallback">
            <RichPreview text={englishOnly} maxLength={80} />
          </span>
          <span data-testid="own">
            <RichPreview text={nepaliOnly} maxLength={80} />
          </span>
        </>,
        { language: 'ne' },
      )
      expect(screen.getByTestId('fallback').firstElementChild).toHaveAttribute('lang', 'en')
      expect(screen.getByTestId('own').children).toHaveLength(0)
      expect(container.querySelectorAll('[lang]')).toHaveLength(1)
    })
  })
})
