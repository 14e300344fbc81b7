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

/** Names each formula drawn in `element` by its spoken reading (once: a labelled formula is left as it is). */
export function labelFormulas(element: HTMLElement) {
  for (const math of Array.from(element.querySelectorAll('math'))) {
    if (math.parentElement?.classList.contains('spoken-maths')) continue
    const label = document.createElement('span')
    label.setAttribute('role', 'img')
    label.setAttribute('aria-label', plainReading(treeOf(math)))
    label.className = 'spoken-maths'
    math.replaceWith(label)
    label.append(math)
  }
}
