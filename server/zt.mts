import { JSDOM } from 'jsdom'
import createDOMPurify from 'dompurify'
const t0 = performance.now()
const { window } = new JSDOM('')
const purify = createDOMPurify(window as any)
console.log('init ms', performance.now() - t0)
const input = `<?xml version="1.0"?><!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs><style><![CDATA[ .a { fill: url(#g) } a>b{} ]]></style><rect fill="url(#g)" width="5" height="5"/><use xlink:href="#g"/><use href="http://evil/x.svg#a"/><text>नमस्ते&nbsp;x &amp; y</text><foreignObject><div>hi</div></foreignObject><script>alert(1)</script><a xlink:href="javascript:alert(1)"><circle r="1"/></a></svg>`
const doc = new window.DOMParser().parseFromString('<!DOCTYPE html><body>' + input, 'text/html')
for (const n of doc.body.childNodes) console.log(n.nodeType, n.nodeName, (n as any).namespaceURI)
const svg = doc.body.querySelector('svg')!
const t1 = performance.now()
const body = purify.sanitize(svg, { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'], RETURN_DOM: true }) as any
console.log('sanitize ms', performance.now() - t1)
console.log(body.nodeName, body.childNodes.length)
const out = new window.XMLSerializer().serializeToString(body.firstChild)
console.log(out)
console.log(purify.removed.map((r: any) => r.element?.nodeName ?? ('@' + r.attribute?.name)))
