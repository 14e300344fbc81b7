// Prints the gzipped size of the JavaScript and CSS the first screen loads (the entry chunk and its
// static imports, not the lazy routes), and writes it to dist/size-report.json. Budget: JS < 150 KB.
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'))
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry)
const seen = new Set()
const js = []
const css = []
;(function walk(key) {
  if (seen.has(key)) return
  seen.add(key)
  const chunk = manifest[key]
  js.push(chunk.file)
  css.push(...(chunk.css ?? []))
  for (const imported of chunk.imports ?? []) walk(imported)
})(entryKey)

const gz = (file) => gzipSync(readFileSync(`dist/${file}`), { level: 9 }).length
const jsBytes = js.reduce((sum, file) => sum + gz(file), 0)
const cssBytes = [...new Set(css)].reduce((sum, file) => sum + gz(file), 0)
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const lazy = Object.values(manifest).filter((c) => c.isDynamicEntry).map((c) => ({ file: c.file, gzip: gz(c.file) }))

writeFileSync('dist/size-report.json', JSON.stringify({ firstScreen: { js: jsBytes, css: cssBytes, files: js }, lazy }, null, 2))
console.log(`first screen: ${kb(jsBytes)} JS gzipped (budget 150 KB), ${kb(cssBytes)} CSS gzipped; ${lazy.length} lazy chunks`)
if (jsBytes > 150 * 1024) {
  console.error('the first screen is over the 150 KB budget')
  process.exit(1)
}
