// Prints the size of the JavaScript the first screen loads, gzipped and brotli-compressed (the server sends the
// brotli files to browsers that accept them, gzip otherwise): the entry chunk with its static imports, plus the lazy
// chunk of the page shown first (/login for a visitor, / for a learner). Writes the figures to dist/size-report.json.
// The build fails when either is above the 150 KB ceiling, so the first screen cannot grow past it unnoticed
// (docs/decisions/020 and 025); the budgets a learner feels are the times of `npm run bench:slow-network`.
import { readFileSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'))
const CEILING_KB = 150
const sizes = (file) => {
  const content = readFileSync(`dist/${file}`)
  return {
    gzip: gzipSync(content, { level: 9 }).length,
    brotli: brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`

function closure(key, seen = new Set()) {
  if (!key || seen.has(key)) return seen
  seen.add(key)
  for (const imported of manifest[key].imports ?? []) closure(imported, seen)
  return seen
}
const jsOf = (keys) =>
  [...keys]
    .map((key) => sizes(manifest[key].file))
    .reduce((a, b) => ({ gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), {
      gzip: 0,
      brotli: 0,
    })

const entry = closure(Object.keys(manifest).find((key) => manifest[key].isEntry))
const firstPages = {
  '/login (visitor)': 'src/features/auth/login-page.tsx',
  '/ (learner)': 'src/features/dashboard/dashboard-page.tsx',
}
const entryJs = jsOf(entry)
const report = { entryJs, screens: {} }
for (const [screen, src] of Object.entries(firstPages)) {
  const page = jsOf([...closure(src)].filter((key) => !entry.has(key)))
  report.screens[screen] = { gzip: entryJs.gzip + page.gzip, brotli: entryJs.brotli + page.brotli }
}
writeFileSync('dist/size-report.json', JSON.stringify(report, null, 2))
console.log('first screen JavaScript:')
for (const [screen, { gzip, brotli }] of Object.entries(report.screens))
  console.log(`  ${screen.padEnd(16)} ${kb(gzip)} gzipped, ${kb(brotli)} brotli`)
console.log(`  (shell ${kb(entryJs.gzip)} gzipped, ${kb(entryJs.brotli)} brotli; ceiling ${CEILING_KB} KB)`)
const worst = Math.max(...Object.values(report.screens).flatMap(({ gzip, brotli }) => [gzip, brotli]))
if (worst > CEILING_KB * 1024) {
  console.error(`the first screen is over the ${CEILING_KB} KB ceiling: load the new code where it is used`)
  process.exit(1)
}
