import { JSDOM } from 'jsdom'
import createDOMPurify from 'dompurify'
const figure = (i: number) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"><defs><linearGradient id="g${i}"><stop offset="0" stop-color="#fc0"/><stop offset="1" stop-color="#f60"/></linearGradient></defs>` + Array.from({ length: 40 }, (_, k) => `<path d="M${k} ${k} C ${k + 10} ${k * 2}, ${k * 3} 40, 90 ${k + 5} S 150 ${k}, 180 ${k + 20}" fill="url(#g${i})" stroke="#333"/>`).join('') + `<text x="10" y="190">चित्र ${i}</text><script>x</script></svg>`
const { window } = new JSDOM('<!DOCTYPE html>')
const purify = createDOMPurify(window as any)
const serializer = new window.XMLSerializer()
const mode = process.argv[2]
const tpl = window.document.createElement('template')
for (let r = 0; r < 4; r++) {
  const t0 = performance.now()
  for (let i = 0; i < 300; i++) {
    let root: any
    if (mode.startsWith('tpl')) { tpl.innerHTML = figure(i); root = tpl.content.firstChild }
    else { const doc = window.document.implementation.createHTMLDocument(''); doc.body.innerHTML = figure(i); root = doc.body.firstChild }
    if (mode.endsWith('purify')) purify.sanitize(root, { USE_PROFILES: { svg: true }, IN_PLACE: true } as any)
    if (mode.endsWith('query')) root.querySelector('path, circle')
    if (mode.endsWith('ser')) serializer.serializeToString(root)
    if (mode.endsWith('walk')) { const it = root.ownerDocument.createNodeIterator(root, 1); let n; while ((n = it.nextNode())) { n.getAttribute('d') } }
    if (mode.endsWith('remove')) { for (const el of Array.from(root.querySelectorAll('script')) as any[]) el.remove() }
  }
  console.log(mode.padEnd(14), ((performance.now() - t0) / 300).toFixed(2), 'ms/svg', (process.memoryUsage().heapUsed / 1e6).toFixed(0), 'MB')
}
