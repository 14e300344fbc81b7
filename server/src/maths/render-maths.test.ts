import { describe, expect, it } from 'vitest'
import { checkMaths, checkMathsInSlices } from './check-maths'
import { renderMaths, type RenderResult } from './render-maths'
import { renderBilingual, richText } from './rich-text'
import { emptyFormula, splitSegments, unmatchedDollar } from '@quiz/contracts/rules/tex-segments'

const rendered = (source: string) => {
  const result: RenderResult = renderMaths(source)
  if (!result.ok) throw new Error(result.problem)
  return result.rendered
}

// No `$` delimiter, no TeX command: what a learner's `en`/`ne` may hold.
const TEX_LEAK = /\$|\\[a-zA-Z]+/

describe('splitSegments', () => {
  it('splits inline and display formulas from the text around them', () => {
    expect(splitSegments('Solve $x^2 = 4$ and $$y = 1$$.')).toEqual({
      ok: true,
      markup: true,
      segments: [
        { kind: 'text', text: 'Solve ' },
        { kind: 'formula', tex: 'x^2 = 4', display: false, source: '$x^2 = 4$' },
        { kind: 'text', text: ' and ' },
        { kind: 'formula', tex: 'y = 1', display: true, source: '$$y = 1$$' },
        { kind: 'text', text: '.' },
      ],
    })
  })

  it('reads \\$ as a dollar sign, which counts as markup', () => {
    expect(splitSegments('It costs \\$5.')).toEqual({
      ok: true,
      markup: true,
      segments: [{ kind: 'text', text: 'It costs $5.' }],
    })
  })

  it('keeps TeX escapes inside a formula, so \\$ there does not close it', () => {
    expect(splitSegments('$\\$5 + x$')).toMatchObject({ ok: true, segments: [{ kind: 'formula', tex: '\\$5 + x' }] })
  })

  it('says a text without $ has no markup', () => {
    expect(splitSegments('Plain <text> & more')).toEqual({
      ok: true,
      markup: false,
      segments: [{ kind: 'text', text: 'Plain <text> & more' }],
    })
  })

  it('refuses an unmatched $ and an empty formula', () => {
    expect(splitSegments('It costs $5.')).toEqual({ ok: false, problem: unmatchedDollar })
    expect(splitSegments('$$x$')).toEqual({ ok: false, problem: unmatchedDollar })
    expect(splitSegments('a $ $ b')).toEqual({ ok: false, problem: emptyFormula })
  })
})

describe('renderMaths', () => {
  it('renders nothing for a text without maths', () => {
    expect(renderMaths('No maths here')).toEqual({ ok: true, rendered: null })
  })

  it('renders a fraction to MathML with its TeX in the annotation, and reads it as 1/2', () => {
    const result = rendered('Half is $\\frac{1}{2}$.')!
    expect(result.plain).toBe('Half is 1/2.')
    expect(result.html).toMatch(/^Half is <span class="katex"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML">/)
    expect(result.html).toContain('<mfrac><mn>1</mn><mn>2</mn></mfrac>')
    expect(result.html).toContain('<annotation encoding="application/x-tex">\\frac{1}{2}</annotation>')
    // MathML only: no KaTeX HTML layout that would need its stylesheet and fonts.
    expect(result.html).not.toContain('katex-html')
  })

  it('renders powers and roots with a plain reading learners can read', () => {
    expect(rendered('$x^2 + 5x + 6 = 0$')!.plain).toBe('x² + 5x + 6 = 0')
    expect(rendered('$\\frac{a+b}{2}$')!.plain).toBe('(a + b)/2')
    expect(rendered('$\\sqrt{2}$')!.plain).toBe('√2')
    expect(rendered('$x^{n-1}$')!.plain).toBe('xⁿ⁻¹')
    expect(rendered('$x^{k+1}$')!.plain).toBe('x^(k + 1)')
    expect(rendered('$\\sin\\theta$')!.plain).toBe('sin θ')
  })

  it('renders chemistry with mhchem: \\ce and \\pu', () => {
    const equation = rendered('$\\ce{2H2 + O2 -> 2H2O}$')!
    expect(equation.plain).toBe('2H₂ + O₂ → 2H₂O')
    expect(equation.html).toContain('<mo stretchy="true" minsize="3.0em">→</mo>')
    expect(rendered('$\\ce{SO4^2-}$')!.plain).toBe('SO₄²⁻')
    const unit = rendered('$\\pu{123 kJ/mol}$')!
    expect(unit.plain).toBe('123 kJ/mol')
    expect(unit.html).toContain('<mn>123</mn>')
  })

  it('renders Nepali words inside \\text{}', () => {
    const result = rendered('$\\text{बल} = ma$')!
    expect(result.plain).toBe('बल = ma')
    expect(result.html).toContain('<mtext>बल</mtext>')
  })

  it('renders $$…$$ as a display formula', () => {
    expect(rendered('$$E = mc^2$$')!.html).toContain(
      '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">',
    )
  })

  it('escapes the text around formulas, and the TeX in the annotation', () => {
    const result = rendered('<b>x</b> & $a < b$ "q"')!
    expect(result.html).toMatch(/^&lt;b&gt;x&lt;\/b&gt; &amp; <span class="katex">/)
    expect(result.html).toContain('<annotation encoding="application/x-tex">a &lt; b</annotation>')
    expect(result.html).toMatch(/ &quot;q&quot;$/)
    expect(result.plain).toBe('<b>x</b> & a < b "q"')
  })

  it('gives \\$ its dollar sign in both the reading and the html', () => {
    expect(rendered('Pay \\$5')).toEqual({ plain: 'Pay $5', html: 'Pay $5' })
  })

  it('refuses TeX that does not parse, naming the formula and the problem', () => {
    expect(renderMaths('Half: $\\frac{1}$')).toEqual({
      ok: false,
      formula: '$\\frac{1}$',
      problem: "Unexpected end of input in a macro argument, expected '}'",
    })
    expect(renderMaths('$\\notacommand{x}$')).toMatchObject({ ok: false, formula: '$\\notacommand{x}$' })
    expect(renderMaths('$\\ce{H2O$')).toMatchObject({ ok: false, formula: '$\\ce{H2O$' })
  })

  it('never lets TeX commands or $ into a plain reading', () => {
    for (const source of [
      '$\\frac{\\alpha}{\\beta}$',
      '$\\sum_{i=1}^{n} i^2$',
      '$\\vec{F} = m\\vec{a}$',
      '$\\int_0^1 x\\,dx$',
      '$\\begin{pmatrix} 1 & 0 \\\\ 0 & 1 \\end{pmatrix}$',
      '$\\ce{CH3COOH <=> CH3COO- + H+}$',
      '$\\overline{AB} \\perp \\hat{n}$',
    ])
      expect(rendered(source)!.plain).not.toMatch(TEX_LEAK)
  })
})

describe('renderBilingual and richText', () => {
  it('gives a text with maths html in both languages, "" for an empty Nepali', () => {
    expect(renderBilingual({ en: 'Area $\\pi r^2$', ne: '' })).toEqual({
      plain: { en: 'Area πr²', ne: '' },
      html: { en: expect.stringContaining('<math'), ne: '' },
    })
    const onlyNepali = renderBilingual({ en: 'a < b', ne: '$x$ < y' })!
    expect(onlyNepali.html.en).toBe('a &lt; b')
    expect(onlyNepali.plain.en).toBe('a < b')
  })

  it('renders nothing for texts without maths', () => {
    expect(renderBilingual({ en: 'Plain', ne: 'सादा' })).toBeNull()
  })

  it('shows learners the plain reading and admins the source, both with the html', () => {
    const source = { en: '$\\frac{1}{2}$', ne: '' }
    const stored = renderBilingual(source)!
    expect(richText(source, stored, 'learner')).toEqual({ en: '1/2', ne: '', html: stored.html })
    expect(richText(source, stored, 'admin')).toEqual({ en: '$\\frac{1}{2}$', ne: '', html: stored.html })
    expect(richText({ en: 'x', ne: '' }, undefined, 'learner')).toEqual({ en: 'x', ne: '', html: null })
  })
})

describe('checkMaths', () => {
  it('finds the same refusals in slices as in one go, over a paste of thousands of texts', async () => {
    const texts = Array.from({ length: 3_000 }, (_, i): [string, string] => [
      `questions.${i}.text.en`,
      i % 1_000 === 7 ? `$\\frac{${i}}$` : `$x^{${i}}$ and $\\ce{H2O}$`,
    ])
    const errors = await checkMathsInSlices(texts)
    expect(Object.keys(errors)).toEqual(['questions.7.text.en', 'questions.1007.text.en', 'questions.2007.text.en'])
    expect(errors).toEqual(checkMaths(texts))
  })

  it('renders a text once: a second render of the same text is the same result', () => {
    const source = `$\\sqrt{${Math.random()}}$`
    expect(renderMaths(source)).toBe(renderMaths(source))
  })

  it('reports each bad text at its path and skips values that are not strings', () => {
    expect(
      checkMaths([
        ['text.en', 'fine $x$'],
        ['text.ne', 'मूल्य $5'],
        ['options.2.text.en', '$\\frac{1}$'],
        ['hint.en', null],
        ['hint.ne', 42],
      ]),
    ).toEqual({
      'text.ne': [unmatchedDollar],
      'options.2.text.en': [
        "The formula $\\frac{1}$ does not parse: Unexpected end of input in a macro argument, expected '}'",
      ],
    })
  })
})
