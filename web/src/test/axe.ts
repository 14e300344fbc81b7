import axe from 'axe-core'

/**
 * Axe's violations in a rendered screen, as rule ids. jsdom lays nothing out, so colour contrast is left to the
 * browser journeys (e2e/accessibility.e2e.ts, e2e/written-marking.e2e.ts); every other rule runs.
 */
export async function axeViolations(root: Element): Promise<string[]> {
  const result = await axe.run(root, { rules: { 'color-contrast': { enabled: false } } })
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.html).join(' | ')}`,
  )
}
