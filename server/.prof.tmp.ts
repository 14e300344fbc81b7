import { sanitizeSvg } from './src/svg/sanitize-svg'
for (const depth of [1000, 5000, 20000, 60000]) {
  const input = '<svg xmlns="http://www.w3.org/2000/svg">' + '<g>'.repeat(depth) + '<circle r="1"/>' + '</g>'.repeat(depth) + '</svg>'
  const t0 = performance.now()
  try { const r = sanitizeSvg(input); console.log(depth, input.length, r.ok, r.ok ? r.svg.length : r.reason, (performance.now() - t0).toFixed(0), 'ms') } catch (e) { console.log(depth, 'threw', String(e).slice(0, 100)) }
}
