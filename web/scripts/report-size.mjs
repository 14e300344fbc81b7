// Prints the gzipped size of the JavaScript the first screen loads: the entry chunk with its static
// imports, plus the lazy chunk of the page shown first (/login for a visitor, / for a learner), and
// writes the figures to dist/size-report.json. The build fails above DESIGN.md's budget of 100 KB, so the first
// screen cannot grow past it unnoticed (docs/decisions/020 and 022).
import { readFileSync, writeFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'))
const gz = (file) => gzipSync(readFileSync(`dist/${file}`), { level: 9 }).length
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const BUDGET_KB = 100

function closure(key, seen = new Set()) {
  if (!key || seen.has(key)) return seen
  seen.add(key)
  for (const imported of manifest[key].imports ?? []) closure(imported, seen)
  return seen
}
const jsOf = (keys) => [...keys].reduce((sum, key) => sum + gz(manifest[key].file), 0)

const entry = closure(Object.keys(manifest).find((key) => manifest[key].isEntry))
const firstPages = {
  '/login (visitor)': 'src/features/auth/login-page.tsx',
  '/ (learner)': 'src/features/dashboard/dashboard-page.tsx',
}
const report = { entryJs: jsOf(entry), screens: {} }
for (const [screen, src] of Object.entries(firstPages)) {
  const page = [...closure(src)].filter((key) => !entry.has(key))
  report.screens[screen] = report.entryJs + jsOf(page)
}
const worst = Math.max(...Object.values(report.screens))
writeFileSync('dist/size-report.json', JSON.stringify(report, null, 2))
console.log(
  `first screen JavaScript, gzipped: ${Object.entries(report.screens)
    .map(([screen, bytes]) => `${screen} ${kb(bytes)}`)
    .join(', ')} ` + `(shell ${kb(report.entryJs)}; budget ${BUDGET_KB} KB)`,
)
if (worst > BUDGET_KB * 1024) {
  console.error(`the first screen is over the ${BUDGET_KB} KB budget: load the new code where it is used`)
  process.exit(1)
}
