// Shared by the server's renderer and the admin form's live preview (`@quiz/contracts/rules/tex-limits`): the bounds
// on what one formula may cost (docs/decisions/047), so the preview refuses what the server refuses.

export const texLimits = {
  /**
   * KaTeX's `maxSize`, in ems: every size a formula states (`\rule`, `\kern`, `\hspace`, `\raisebox`) is capped to
   * it. 20em is about a phone screen's width, so no single rule or space can cover the exam screen.
   */
  maxSize: 20,
  /**
   * KaTeX's `maxExpand`: macro expansions in one formula. A `\ce{}` reaction uses 1 to 10 and ordinary TeX almost
   * none; KaTeX's default (1,000) lets one `\def` multiply a formula a thousandfold.
   */
  maxExpand: 100,
  /**
   * Groups open at once: `{`, `\left`, `\begin`. KaTeX parses and builds recursively, and about 2,000 levels
   * overflow the stack; a continued fraction ten levels deep opens about 20.
   */
  maxDepth: 50,
  /** Characters of MathML one text may render to: 5,000 characters of quadratic formulas render to about 26,000. */
  maxRenderedChars: 50_000,
} as const

/**
 * The KaTeX options of the server's renderer and the preview alike. MathML alone: learners' browsers draw it with no
 * stylesheet, fonts or JavaScript (decisions 027, 028). `strict: 'ignore'`: KaTeX would warn on Nepali words in
 * \text{}, which are exactly what a bilingual paper holds. `trust` false: no \href, \url or \includegraphics from an
 * admin's text reaches a learner. `maxSize` and `maxExpand`: the bounds above.
 */
export const katexOptions = {
  output: 'mathml',
  throwOnError: true,
  strict: 'ignore',
  trust: false,
  maxSize: texLimits.maxSize,
  maxExpand: texLimits.maxExpand,
} as const

const commandName = /[a-zA-Z]+/y

/**
 * The deepest nesting of groups in a formula's TeX, counted in one pass without recursion, so that a text nested too
 * deep to parse is measured safely. `\{` and `\}` are literal braces; unbalanced groups are KaTeX's to refuse.
 */
export function texDepth(tex: string): number {
  let depth = 0
  let deepest = 0
  let index = 0
  while (index < tex.length) {
    const char = tex[index]
    if (char === '\\') {
      commandName.lastIndex = index + 1
      const name = commandName.exec(tex)?.[0]
      if (name === 'left' || name === 'begin') depth += 1
      else if (name === 'right' || name === 'end') depth -= 1
      // A command's name, or the one character it escapes (`\{`, `\\`).
      index += 1 + (name?.length ?? 1)
    } else {
      if (char === '{') depth += 1
      else if (char === '}') depth -= 1
      index += 1
    }
    if (depth > deepest) deepest = depth
  }
  return deepest
}

// TeX's ways to define a macro: with them a 5,000-character formula can expand, within maxExpand, to a hundred times
// its size (seconds of KaTeX for one text). A question needs none; without them a formula costs what its source says.
const macroDefinition =
  /\\(?:[egx]?def|let|futurelet|global|(?:re)?newcommand|providecommand|(?:re)?newenvironment)(?![a-zA-Z])/

/** Whether a formula's TeX defines a macro (`\def`, `\newcommand`, `\let`…), which formulas may not. */
export const definesMacro = (tex: string) => macroDefinition.test(tex)

export const definesAMacro = 'defines a macro (\\def, \\newcommand, \\let): write the TeX out in full.'
export const tooDeep = `is nested more than ${texLimits.maxDepth} groups deep ({ }, \\left, \\begin): write it more simply.`
export const tooManyExpansions = `needs more than ${texLimits.maxExpand} macro expansions (long \\ce{} reactions): shorten it or split it.`
export const tooLarge =
  `renders to more than ${texLimits.maxRenderedChars.toLocaleString('en')} characters of MathML: ` +
  'shorten it or split it into several texts.'
