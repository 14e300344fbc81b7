import { JSDOM } from 'jsdom'
import createDOMPurify from 'dompurify'
const { window } = new JSDOM('<!DOCTYPE html>')
const purify = createDOMPurify(window as any)
const small = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">` + '<path d="M0 0 L10 10 L20 0 Z" fill="red"/>'.repeat(30) + '<text x="1" y="2">नमस्ते</text></svg>'
const cfg = { USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'], RETURN_DOM: true }
function time(label: string, f: () => void) { for (let i = 0; i < 20; i++) f(); const t = performance.now(); for (let i = 0; i < 100; i++) f(); console.log(label, ((performance.now() - t) / 100).toFixed(2), 'ms') }
time('DOMParser', () => new window.DOMParser().parseFromString(`<!DOCTYPE html><body>${small}`, 'text/html'))
const tpl = window.document.createElement('template')
time('template', () => { tpl.innerHTML = small })
time('purify string', () => purify.sanitize(small, cfg as any))
time('purify node import', () => { tpl.innerHTML = small; purify.sanitize(tpl.content.firstChild as any, cfg as any) })
time('purify in place', () => { tpl.innerHTML = small; purify.sanitize(tpl.content.firstChild as any, { ...cfg, IN_PLACE: true } as any) })
tpl.innerHTML = small
const s = new window.XMLSerializer()
time('serialize', () => s.serializeToString(tpl.content.firstChild as any))
time('querySelector', () => (tpl.content.firstChild as any).querySelector('circle, ellipse, line, path'))
