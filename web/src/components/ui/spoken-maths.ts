import { plainReading, type MathTreeNode } from '@quiz/contracts/rules/maths-reading'

// TalkBack skips MathML (WEB.md "A blind learner"): each formula is wrapped in a `<span role="img">` named by its
// plain reading, the same reading the server stores as the text's `en`/`ne`, walked here from the MathML the server
// rendered (so texts written before this change are read too). An img's children are presentational: the formula
// is read once, by its label, and still drawn by the browser.

function treeOf(node: Node): MathTreeNode {
  if (node.nodeType !== Node.ELEMENT_NODE) return { text: node.nodeValue ?? '' }
  const element = node as Element
  const attributes: Record<string, string> = {}
  for (const attribute of Array.from(element.attributes)) attributes[attribute.name] = attribute.value
  return { type: element.localName, attributes, children: Array.from(element.childNodes).map(treeOf) }
}

/** The formulas of a rendered text, each named by its spoken reading; the html unchanged when it has none. */
export function withSpokenMaths(html: string): string {
  if (!html.includes('<math') || typeof document === 'undefined') return html
  const template = document.createElement('template')
  template.innerHTML = html
  for (const math of Array.from(template.content.querySelectorAll('math'))) {
    const label = document.createElement('span')
    label.setAttribute('role', 'img')
    label.setAttribute('aria-label', plainReading(treeOf(math)))
    label.className = 'spoken-maths'
    math.replaceWith(label)
    label.append(math)
  }
  return template.innerHTML
}
