// Makes the tiny fonts the language switcher's "नेपाली" is drawn with (run from web/: `npm run label-font`; the
// woff2 files it writes are committed, so a build does not need this script). They hold only that word's glyphs,
// cut from the Noto Sans Devanagari the app uses, so an English screen draws it in the same face without fetching
// the whole Devanagari font (about 50 KB a weight) before anyone reads Nepali (decision 025).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import subsetFont from 'subset-font'

// The label as the switcher and the screens' toggles show it (components/layout/language-switcher.tsx).
const LABEL = 'नेपाली'
const require = createRequire(import.meta.url)
mkdirSync('src/assets/fonts', { recursive: true })
// 400 when English is chosen, 600 on the pressed button once Nepali is.
for (const weight of [400, 600]) {
  const font = readFileSync(
    require.resolve(`@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-${weight}-normal.woff2`),
  )
  const subset = await subsetFont(font, LABEL, { targetFormat: 'woff2' })
  writeFileSync(`src/assets/fonts/nepali-label-${weight}.woff2`, subset)
  console.log(`nepali-label-${weight}.woff2: ${subset.length} bytes`)
}
