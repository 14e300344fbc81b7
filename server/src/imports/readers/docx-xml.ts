export type XmlNode = Record<string, unknown>

export const tagOf = (node: XmlNode) => Object.keys(node).find((key) => key !== ':@') ?? ''
export const childrenOf = (node: XmlNode): XmlNode[] => {
  const value = node[tagOf(node)]
  return Array.isArray(value) ? (value as XmlNode[]) : []
}
export const attr = (node: XmlNode | undefined, name: string) =>
  ((node?.[':@'] as Record<string, string> | undefined) ?? {})[name]
export const child = (node: XmlNode, tag: string) => childrenOf(node).find((c) => tagOf(c) === tag)
export const textNode = (node: XmlNode) => {
  const text = childrenOf(node).find((c) => '#text' in c)
  return text ? String(text['#text']) : ''
}

export function descendants(node: XmlNode, tag: string, found: XmlNode[] = []): XmlNode[] {
  if (tagOf(node) === tag) found.push(node)
  for (const c of childrenOf(node)) descendants(c, tag, found)
  return found
}

export const fontOf = (rPr: XmlNode | undefined) => {
  const fonts = rPr ? child(rPr, 'w:rFonts') : undefined
  return fonts ? (attr(fonts, 'w:ascii') ?? attr(fonts, 'w:hAnsi') ?? attr(fonts, 'w:cs') ?? null) : null
}
