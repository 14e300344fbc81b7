import createDOMPurify, { type DOMPurify } from 'dompurify'
import { createRequire } from 'node:module'
import type { JSDOM } from 'jsdom'

// Defence in depth beside the web's <img> data URLs; parsed as XML, a fresh document per call (decision 007).

export type SanitizeSvgResult = { ok: true; svg: string } | { ok: false; reason: string }

export const svgLimits = { depth: 100, elements: 2_000, attributes: 20_000, attributesPerElement: 100 } as const

export const svgRejections = {
  notSvg: 'This is not SVG markup: paste one <svg> element and nothing else.',
  doctype: 'This SVG declares a DOCTYPE with entities; remove the DOCTYPE and paste it again.',
  tooComplex:
    `This SVG is too complex: at most ${svgLimits.elements} elements, nested at most ${svgLimits.depth} deep, ` +
    `with at most ${svgLimits.attributesPerElement} attributes each and ${svgLimits.attributes} in all.`,
  emptyAfterSanitising:
    'Nothing drawable is left in this SVG after removing unsafe parts (scripts, external references, HTML).',
  notWellFormed: (problem: string) => `This SVG is not well-formed XML (${problem}).`,
} as const

const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK_NS = 'http://www.w3.org/1999/xlink'

// One window per process, jsdom loaded on first use: both are dear (docs/performance.md) and only admins need them.
let instance: { window: JSDOM['window']; purify: DOMPurify } | undefined

function purifier() {
  if (instance) return instance
  const { JSDOM: Dom } = createRequire(import.meta.url)('jsdom') as typeof import('jsdom')
  const { window } = new Dom('')
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0])
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (!isSafeAttribute(data.attrName, data.attrValue)) data.keepAttr = false
  })
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'style') return
    // A <style> with children is emptied (removed children could glue "@imp<x/>ort"), as is one that fetches.
    const element = node as unknown as Element
    if (element.firstElementChild !== null || !isSafeCss(element.textContent ?? '')) element.textContent = ''
  })
  instance = { window, purify }
  return instance
}

/** Decodes what a CSS parser would: comments vanish, `\69` and `\i` escapes become their characters. */
function normaliseCss(value: string) {
  return value
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, '')
    .replace(/\\([0-9a-f]{1,6})[ \t\r\n\f]?/gi, (_match, hex: string) => {
      const codePoint = Number.parseInt(hex, 16)
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : '\ufffd'
    })
    .replace(/\\\r?\n/g, '')
    .replace(/\\(.)/g, '$1')
    .replace(/\0/g, '')
    .toLowerCase()
}

// Every url() must be `url(#id)`; no @import, image-set() (which takes bare strings), expression() or script URLs.
function isSafeCss(value: string) {
  const css = normaliseCss(value)
  if (/@import|image-set\s*\(|expression\s*\(|javascript:|vbscript:|\bsrc\s*\(/.test(css)) return false
  for (const match of css.matchAll(/url\s*\(\s*(['"]?)\s*(.?)/g)) {
    if (match[2] !== '#') return false
  }
  return true
}

function isSafeAttribute(name: string, value: string) {
  // A pasted declaration may be wrong (Illustrator's xmlns="&ns_svg;"): the serialiser declares the ones in use.
  if (name === 'xmlns') return value === SVG_NS
  if (name.startsWith('xmlns:')) return name === 'xmlns:xlink' && value === XLINK_NS
  // href and xlink:href: same-document fragments only, which blocks http(s):, data:, javascript: and file:.
  if (name === 'href' || name.endsWith(':href')) return value.trim().startsWith('#')
  return isSafeCss(value)
}

// Blanked out rather than cut, so the parser's line and column numbers still point into the paste.
const PROLOG_PART = /\s+|<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE\s[^[>]*>/iy
// A start tag from its "<"; no part may cross a "<", so every scan below is linear.
const START_TAG = /<([^\s/>!?<][^\s/><]*)((?:[^<>"']|"[^"<]*"|'[^'<]*')*)>/y

// HTML's named characters that SVG copied from a web page or typed by hand tends to use, and XML lacks.
const HTML_ENTITIES: Record<string, number> = {
  nbsp: 160,
  deg: 176,
  plusmn: 177,
  times: 215,
  divide: 247,
  minus: 8722,
  le: 8804,
  ge: 8805,
  ne: 8800,
  ndash: 8211,
  mdash: 8212,
  hellip: 8230,
  middot: 183,
  copy: 169,
  frac12: 189,
  sup2: 178,
  sup3: 179,
  pi: 960,
}
const HTML_ENTITY = new RegExp(`&(${Object.keys(HTML_ENTITIES).join('|')});`, 'g')

interface Prepared {
  markup: string
  problem?: string
}

function blankProlog(markup: string) {
  let end = 0
  PROLOG_PART.lastIndex = 0
  for (let part = PROLOG_PART.exec(markup); part; part = PROLOG_PART.exec(markup)) end = PROLOG_PART.lastIndex
  return markup.slice(0, end).replace(/[^\n]/g, ' ') + markup.slice(end)
}

// Where this count and the parser disagree the markup is malformed and the parser stops: no deeper tree is built.
function scanElements(markup: string) {
  let depth = 0
  let elements = 0
  let attributes = 0
  let root: { name: string; attributes: string; index: number } | undefined
  const skipTo = (from: number, terminator: string) => {
    const end = markup.indexOf(terminator, from)
    return end === -1 ? -1 : markup.indexOf('<', end + terminator.length)
  }
  for (let at = markup.indexOf('<'); at !== -1;) {
    if (markup.startsWith('<!--', at)) at = skipTo(at + 4, '-->')
    else if (markup.startsWith('<![CDATA[', at)) at = skipTo(at + 9, ']]>')
    else if (markup.startsWith('<?', at)) at = skipTo(at + 2, '?>')
    else if (markup.startsWith('</', at)) {
      depth = Math.max(0, depth - 1)
      at = markup.indexOf('<', at + 2)
    } else {
      START_TAG.lastIndex = at
      const tag = START_TAG.exec(markup)
      if (tag) {
        root ??= { name: tag[1]!, attributes: tag[2]!, index: at }
        // The sanitiser's work grows with the square of an element's attributes in jsdom: bound both.
        const own = tag[2]!.replace(/"[^"]*"|'[^']*'/g, '').split('=').length - 1
        elements += 1
        attributes += own
        if (!tag[2]!.endsWith('/')) depth += 1
        const tooMany =
          elements > svgLimits.elements || own > svgLimits.attributesPerElement || attributes > svgLimits.attributes
        if (depth > svgLimits.depth || tooMany) return { tooComplex: true, root }
      }
      at = markup.indexOf('<', at + 1)
    }
  }
  return { tooComplex: false, root }
}

// Entity declarations are refused: jsdom's XML parser would expand them (billion laughs).
function prepare(input: string): Prepared {
  const markup = blankProlog(input.replace(HTML_ENTITY, (_match, name: string) => `&#${HTML_ENTITIES[name]};`))
  if (/<!DOCTYPE|<!ENTITY/i.test(markup)) return { markup, problem: svgRejections.doctype }
  const { tooComplex, root } = scanElements(markup)
  if (tooComplex) return { markup, problem: svgRejections.tooComplex }
  if (!root || root.name !== 'svg') return { markup, problem: svgRejections.notSvg }

  let declarations = ''
  if (!/\sxmlns\s*=/.test(root.attributes)) declarations += ` xmlns="${SVG_NS}"`
  if (/\bxlink:/.test(markup) && !/\sxmlns:xlink\s*=/.test(root.attributes))
    declarations += ` xmlns:xlink="${XLINK_NS}"`
  const at = root.index + 1 + root.name.length
  return { markup: markup.slice(0, at) + declarations + markup.slice(at) }
}

// CPU-bound, and a big SVG takes long (docs/performance.md): callers with many SVGs should yield between calls.
export function sanitizeSvg(input: string): SanitizeSvgResult {
  const { markup, problem } = prepare(input)
  if (problem) return { ok: false, reason: problem }

  const { window, purify } = purifier()
  const document = new window.DOMParser().parseFromString(markup, 'image/svg+xml')
  const root = document.documentElement
  if (root.namespaceURI !== SVG_NS || root.localName !== 'svg') {
    const parserError = root.localName === 'parsererror' ? root.textContent?.trim() : undefined
    if (!parserError) return { ok: false, reason: svgRejections.notSvg }
    const [, line, column, message] = /^(\d+):(\d+): ([\s\S]*?)\.?$/.exec(parserError) ?? []
    return {
      ok: false,
      reason: svgRejections.notWellFormed(line ? `line ${line}, column ${column}: ${message}` : parserError),
    }
  }

  try {
    replaceCdataWithText(root)
    purify.sanitize(root, {
      USE_PROFILES: { svg: true, svgFilters: true },
      // <use> is safe with #fragment hrefs (the hook above); SMIL is not needed and has a history of sanitiser bypass.
      ADD_TAGS: ['use'],
      FORBID_TAGS: ['animatecolor', 'animatemotion', 'animatetransform', 'foreignobject', 'script'],
      IN_PLACE: true,
    })
    if (!hasDrawableContent(root)) return { ok: false, reason: svgRejections.emptyAfterSanitising }
    return { ok: true, svg: new window.XMLSerializer().serializeToString(root) }
  } finally {
    // DOMPurify's NodeIterator keeps `root` alive until the job ends: emptying it lets the tree go now.
    root.textContent = ''
  }
}

// firstChild/nextSibling: jsdom's live `children` answers each index in O(n), and 5,000 shapes took seconds.

/** `<style><![CDATA[...]]></style>` is how drawing tools write CSS; as text it means the same and survives. */
function replaceCdataWithText(root: Element) {
  const pending: Node[] = [root]
  for (let node = pending.pop(); node; node = pending.pop()) {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 4 /* CDATA_SECTION_NODE */) {
        const text = root.ownerDocument.createTextNode((child as CharacterData).data)
        node.replaceChild(text, child)
        child = text
      } else if (child.nodeType === 1) pending.push(child)
    }
  }
}

// What can paint pixels. <image> and <use> paint only through their reference, which may have been removed.
const SHAPES = new Set(['circle', 'ellipse', 'line', 'path', 'polygon', 'polyline', 'rect', 'text'])
const REFERENCES = new Set(['image', 'use'])

function hasDrawableContent(root: Element): boolean {
  const pending: Element[] = [root]
  for (let element = pending.pop(); element; element = pending.pop()) {
    for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
      if (SHAPES.has(child.localName)) return true
      if (REFERENCES.has(child.localName) && (child.hasAttribute('href') || child.hasAttributeNS(XLINK_NS, 'href')))
        return true
      pending.push(child)
    }
  }
  return false
}
