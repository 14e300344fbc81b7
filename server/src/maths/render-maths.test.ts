import { describe, expect, it } from 'vitest'
import { checkMaths, checkMathsInSlices } from './check-maths'
import { RENDER_CACHE_CHARS, renderCacheSize, renderMaths, type RenderResult } from './render-maths'
import { renderBilingual, richText } from './rich-text'
import { emptyFormula, splitSegments, unmatchedDollar } from '@quiz/contracts/rules/tex-segments'
import {
  definesAMacro,
  texDepth,
  texLimits,
  tooDeep,
  tooLarge,
  tooManyExpansions,
} from '@quiz/contracts/rules/tex-limits'

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

// Issue 41 (M3, L1 and a note): what one formula may cost, and what the render cache may hold (docs/decisions/047).
describe('render bounds', () => {
  const nested = (depth: number) => `${'{'.repeat(depth)}x${'}'.repeat(depth)}`

  it('counts nesting without recursion: braces, \\left and \\begin, not \\{ or \\leftarrow', () => {
    expect(texDepth('x^{2}')).toBe(1)
    expect(texDepth('\\frac{\\left( a^{2} \\right)}{b}')).toBe(3)
    expect(texDepth('\\begin{pmatrix} {1} \\end{pmatrix}')).toBe(2)
    expect(texDepth('\\{ x \\} \\leftarrow \\rightarrow')).toBe(0)
    expect(texDepth('\\\\{x}')).toBe(1)
    expect(texDepth(nested(100_000))).toBe(100_000)
  })

  it('refuses TeX nested 2,000 deep (4,003 characters) naming the formula, where KaTeX overflowed the stack', () => {
    const formula = `$${nested(2_000)}$`
    expect(formula.length).toBe(4_003)
    expect(renderMaths(`Deep: ${formula}`)).toEqual({ ok: false, formula, problem: tooDeep, beyond: true })
    expect(checkMaths([['text.en', formula]])).toEqual({ 'text.en': [`The formula ${formula} ${tooDeep}`] })
    // Up to the limit renders as before.
    expect(renderMaths(`$${nested(texLimits.maxDepth)}$`)).toMatchObject({ ok: true })
  })

  it('refuses macro definitions, with which a formula expands past what its source says', () => {
    // Nesting the source does not show, and 99 copies of a 4,400-character body (seconds of KaTeX, then too large).
    const nesting = `$\\def\\a{${nested(40).replace('x', '\\a')}}\\a$`
    expect(texDepth(nesting)).toBeLessThanOrEqual(texLimits.maxDepth)
    const copies = `$\\def\\a{${'x^2+'.repeat(1_100)}}${'\\a'.repeat(99)}$`
    for (const formula of [nesting, copies, '$\\newcommand{\\half}{\\frac12}\\half$', '$\\let\\x=\\alpha \\x$'])
      expect(renderMaths(formula)).toEqual({ ok: false, formula, problem: definesAMacro, beyond: true })
    // Commands that only begin with those names are not definitions.
    expect(renderMaths('$\\leftarrow \\letpart$')).toMatchObject({
      ok: false,
      problem: expect.not.stringContaining('macro'),
    })
    expect(renderMaths('$a \\leftarrow b$')).toMatchObject({ ok: true })
  })

  it('caps macro expansions, in words an admin can act on', () => {
    const formula = `$\\ce{${'A -> B '.repeat(texLimits.maxExpand + 1)}}$`
    expect(renderMaths(formula)).toEqual({ ok: false, formula, problem: tooManyExpansions, beyond: true })
    // A long reaction is well inside it.
    expect(renderMaths(`$\\ce{${'CH3COOH <=> CH3COO- + H+ '.repeat(10)}}$`)).toMatchObject({ ok: true })
  })

  it('caps every size a formula states at maxSize ems', () => {
    const html = rendered('$\\rule{99999em}{99999em}$')!.html
    expect(html).toContain(`width="${texLimits.maxSize}em" height="${texLimits.maxSize}em"`)
    expect(html).not.toContain('99999em"')
  })

  it('refuses a text whose MathML would pass the cap, naming the formula where it does', () => {
    const source = '$\\frac{1}{2}$ '.repeat(300)
    const result = renderMaths(source)
    expect(result).toEqual({ ok: false, formula: '$\\frac{1}{2}$', problem: tooLarge, beyond: true })
    const under = rendered('$\\frac{1}{2}$ '.repeat(50))!
    expect(under.html.length).toBeLessThan(texLimits.maxRenderedChars)
  })

  it('keeps the render cache within its budget of characters, the oldest renders going first', () => {
    const first = `$\\ce{${'H2SO4 -> 2H+ + SO4^2- '.repeat(8)}}$ first`
    const firstResult = renderMaths(first)
    let i = 0
    // Far more than the budget: each text renders to about 9,000 characters.
    while (i < (2 * RENDER_CACHE_CHARS) / 9_000) {
      const result = renderMaths(`$\\ce{${'H2SO4 -> 2H+ + SO4^2- '.repeat(8)}}$ ${i++}`)
      expect(result.ok).toBe(true)
      expect(renderCacheSize().chars).toBeLessThanOrEqual(RENDER_CACHE_CHARS)
    }
    expect(renderCacheSize().chars).toBeGreaterThan(RENDER_CACHE_CHARS / 2)
    // Evicted: rendered afresh, an equal result but not the same object.
    const again = renderMaths(first)
    expect(again).toEqual(firstResult)
    expect(again).not.toBe(firstResult)
  })
})
