import createDOMPurify, { type DOMPurify } from 'dompurify'
import { JSDOM } from 'jsdom'

// Admins paste SVG that every learner's browser then renders. The web app shows it only as an <img> with a
// data URL (no script runs there, nothing external loads), and this module makes the stored markup safe
// on its own as well, in case it is ever shown inline: defence in depth.

export type SanitizeSvgResult = { ok: true; svg: string } | { ok: false; reason: string }

export const svgRejections = {
  notSvg: 'This is not SVG markup: paste one <svg> element and nothing else.',
  emptyAfterSanitising: 'Nothing drawable is left in this SVG after removing unsafe parts (scripts, external references, HTML).',
} as const

const SVG_NS = 'http://www.w3.org/2000/svg'
const XLINK_NS = 'http://www.w3.org/1999/xlink'

// One window per process: building a jsdom window costs ~100 ms, a sanitise call about a millisecond.
let instance: { window: JSDOM['window']; purify: DOMPurify; template: HTMLTemplateElement } | undefined

function purifier() {
  if (instance) return instance
  const { window } = new JSDOM('<!DOCTYPE html>')
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0])
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (!isSafeAttribute(data.attrName, data.attrValue)) data.keepAttr = false
  })
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName !== 'style') return
    // A <style> may only hold text. Child elements could be removed by the sanitiser later and glue the
    // text around them into a new rule ("@imp<x/>ort"), so a style with children is emptied, as is any
    // style that would fetch something or import a sheet.
    const element = node as unknown as Element
    if (element.firstElementChild !== null || !isSafeCss(element.textContent ?? '')) element.textContent = ''
  })
  instance = { window, purify, template: window.document.createElement('template') }
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

/**
 * True when CSS (a <style> body, a style attribute or a presentation attribute such as fill) can only
 * point inside the document: every url() must be `url(#id)`; no @import, image-set() (which takes bare
 * strings), legacy expression() or script URLs.
 */
function isSafeCss(value: string) {
  const css = normaliseCss(value)
  if (/@import|image-set\s*\(|expression\s*\(|javascript:|vbscript:|\bsrc\s*\(/.test(css)) return false
  for (const match of css.matchAll(/url\s*\(\s*(['"]?)\s*(.?)/g)) {
    if (match[2] !== '#') return false
  }
  return true
}

function isSafeAttribute(name: string, value: string) {
  // The serialiser declares the namespaces the elements really use. A pasted declaration may be wrong
  // (old Illustrator files say xmlns="&ns_svg;") and would make the image invalid XML: keep only right ones.
  if (name === 'xmlns') return value === SVG_NS
  if (name.startsWith('xmlns:')) return name === 'xmlns:xlink' && value === XLINK_NS
  // href, xlink:href (and any prefix bound to XLink): same-document fragments only. This one rule blocks
  // http(s):, data:, javascript: (however it is encoded: the DOM already decoded entities) and file: alike.
  if (name === 'href' || name.endsWith(':href')) return value.trim().startsWith('#')
  return isSafeCss(value)
}

// An XML declaration and a DOCTYPE (with or without an internal subset, as old Illustrator files have) come
// before the <svg>; they are dropped unread, so their entities are never defined, let alone expanded.
const PROLOG = /^\s*(?:<\?xml[\s\S]*?\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE\s[^[>]*(?:\[[\s\S]*?\]\s*)?>)?/i

/**
 * Parses `input` as one <svg> element, removes everything that could run script or fetch anything, and
 * returns it as standalone XML (with its xmlns, ready for a data: URL). Markup that is not a single <svg>,
 * or an SVG with nothing drawable left, is refused with a reason meant for the person who pasted it.
 */
export function sanitizeSvg(input: string): SanitizeSvgResult {
  const { window, purify, template } = purifier()
  // The HTML parser is lenient the way browsers are (a missing xmlns, an &nbsp;, an unclosed tag) and
  // never loads anything. A <template> parses without building a new document for every call.
  template.innerHTML = input.replace(PROLOG, '')
  try {
    const root = singleSvgRoot(template.content)
    if (!root) return { ok: false, reason: svgRejections.notSvg }
    purify.sanitize(root, {
      USE_PROFILES: { svg: true, svgFilters: true },
      // <use> is safe once its href is limited to #fragments (the hook above); SMIL animation is not needed
      // for quiz diagrams and has a history of sanitiser bypasses, so it goes too.
      ADD_TAGS: ['use'],
      FORBID_TAGS: ['animatecolor', 'animatemotion', 'animatetransform', 'foreignobject', 'script'],
      IN_PLACE: true,
    })
    if (!hasDrawableContent(root)) return { ok: false, reason: svgRejections.emptyAfterSanitising }
    return { ok: true, svg: new window.XMLSerializer().serializeToString(root) }
  } finally {
    template.innerHTML = ''
  }
}

/** The one <svg> element in `container`, or undefined when there is anything else besides comments and whitespace. */
function singleSvgRoot(container: Node): Element | undefined {
  let svg: Element | undefined
  for (const node of Array.from(container.childNodes)) {
    if (node.nodeType === 8 /* comment */) continue
    if (node.nodeType === 3 /* text */ && node.textContent!.trim() === '') continue
    const element = node as Element
    if (node.nodeType !== 1 || svg || element.namespaceURI !== SVG_NS || element.localName !== 'svg') return undefined
    svg = element
  }
  return svg
}

// What can paint pixels. <image> and <use> paint only through their reference, which may have been removed.
const SHAPES = 'circle, ellipse, line, path, polygon, polyline, rect, text'
const REFERENCES = 'image, use'

function hasDrawableContent(svg: Element): boolean {
  if (svg.querySelector(SHAPES) !== null) return true
  return Array.from(svg.querySelectorAll(REFERENCES)).some(
    (element) => element.hasAttribute('href') || element.hasAttributeNS(XLINK_NS, 'href'),
  )
}
