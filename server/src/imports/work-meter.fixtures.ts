// Counts the work a reader does without a clock (issue 41: tests bound work, never time). While `measureWork` runs,
// the string, array and regular-expression primitives the readers build on are wrapped, each charging what it
// touches: a slice its length, a search the characters it passes, a regular expression the text it is run over, a
// join what it writes. A reader quadratic in its input (a prefix sliced per question, a block joined per line, an
// unanchored expression run over the whole text from each of its lines) shows as work growing fourfold when the input
// doubles; a linear one as twofold. Backtracking inside one expression is not seen here: the readers walk such
// inputs by hand instead (see the comments marked issue 41 in readers/).

type Method = (this: unknown, ...args: unknown[]) => unknown

const charges: [object, string, (self: unknown, args: unknown[], result: unknown) => number][] = [
  [String.prototype, 'slice', (_s, _a, r) => (r as string).length + 1],
  [String.prototype, 'substring', (_s, _a, r) => (r as string).length + 1],
  [String.prototype, 'trim', (s) => (s as string).length + 1],
  [String.prototype, 'trimStart', (s) => (s as string).length + 1],
  [String.prototype, 'trimEnd', (s) => (s as string).length + 1],
  [String.prototype, 'normalize', (s) => (s as string).length + 1],
  [String.prototype, 'toLowerCase', (s) => (s as string).length + 1],
  [String.prototype, 'split', (s) => (s as string).length + 1],
  [String.prototype, 'replace', (s) => (s as string).length + 1],
  [String.prototype, 'replaceAll', (s) => (s as string).length + 1],
  [String.prototype, 'match', (s) => (s as string).length + 1],
  [String.prototype, 'matchAll', (s) => (s as string).length + 1],
  [String.prototype, 'search', (s) => (s as string).length + 1],
  [String.prototype, 'includes', (s) => (s as string).length + 1],
  [
    String.prototype,
    'indexOf',
    (s, a, r) => ((r as number) >= 0 ? (r as number) : (s as string).length) - Number(a[1] ?? 0) + 1,
  ],
  [Array.prototype, 'join', (_s, _a, r) => (r as string).length + 1],
  [Array.prototype, 'slice', (_s, _a, r) => (r as unknown[]).length + 1],
  [Array.prototype, 'concat', (_s, _a, r) => (r as unknown[]).length + 1],
  [Array.prototype, 'map', (s) => (s as unknown[]).length + 1],
  [Array.prototype, 'filter', (s) => (s as unknown[]).length + 1],
  [Array.prototype, 'includes', (s) => (s as unknown[]).length + 1],
  [Array.prototype, 'push', (_s, a) => a.length],
  [
    RegExp.prototype,
    'exec',
    // From where the search started (lastIndex, for a global or sticky expression) to the end of its match, or of
    // the text when none: the characters the search passed over.
    (s, a, r) => {
      const subject = String(a[0])
      const regex = s as RegExp & { startedAt: number }
      const match = r as RegExpExecArray | null
      // A sticky expression (split's, one position at a time) tries only where it stands.
      if (!match && regex.sticky) return 1
      return (match ? match.index + match[0].length : subject.length) - regex.startedAt + 1
    },
  ],
]

/** `work()` run with its work counted; the primitives are restored whatever happens. */
export async function measureWork<T>(work: () => T | Promise<T>): Promise<{ result: T; steps: number }> {
  let steps = 0
  const originals = charges.map(([owner, name]) => [owner, name, (owner as Record<string, Method>)[name]!] as const)
  charges.forEach(([owner, name, charge], index) => {
    const original = originals[index]![2]
    // Work inside a primitive (split calling exec) is charged by both: a constant factor, the same for any input.
    ;(owner as Record<string, Method>)[name] = function (this: unknown, ...args: unknown[]) {
      if (this instanceof RegExp)
        (this as RegExp & { startedAt: number }).startedAt = this.global || this.sticky ? this.lastIndex : 0
      const result = original.apply(this, args)
      steps += charge(this, args, result)
      return result
    }
  })
  try {
    const result = await work()
    return { result, steps }
  } finally {
    for (const [owner, name, original] of originals) (owner as Record<string, Method>)[name] = original
  }
}
