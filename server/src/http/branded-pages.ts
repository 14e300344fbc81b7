import type { InstituteBranding } from '@quiz/contracts'
import { brandPalette, paletteStyle } from '@quiz/contracts/rules/brand-colours'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

// WEB.md "Institutes": the first response already carries the institute of its address, its name in the title and
// the header, its colours, and the branding the app reads at start (web/src/lib/institute.ts), so a learner on a
// slow connection never sees the product's name or another institute's flash by before their own.

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttribute = (text: string) => escapeText(text).replace(/"/g, '&quot;')

/** A built page (index.html or a visitor screen's) with `branding` written into it. */
export function brandPage(html: string, branding: InstituteBranding): string {
  const palette = brandPalette(branding.colour)
  const name = escapeText(branding.name.en)
  const head =
    `<meta name="institute" content="${escapeAttribute(JSON.stringify(branding))}">` +
    `<style id="institute-colours">${paletteStyle(palette)}</style>`
  return (
    html
      .replace(/<title>[^<]*<\/title>/, `<title>${name}</title>`)
      .replace(/(<meta name="theme-color" content=")[^"]*(")/, `$1${palette.header}$2`)
      .replace('</head>', `${head}</head>`)
      // The prerendered header's link (web/src/components/layout/top-nav.tsx) says the product's name.
      .replace(/(class="top-nav__brand"[^>]*>)([^<]*)(<)/, `$1${name}$3`)
  )
}

export interface EncodedPage {
  plain: Buffer
  br: Buffer
  gzip: Buffer
}

/** A page as sent: brotli at its best, as the build's own files are, since a page is encoded once per branding. */
export const encodePage = (html: string): EncodedPage => {
  const plain = Buffer.from(html)
  return {
    plain,
    br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(plain, { level: 9 }),
  }
}

/**
 * Pages already branded, newest use last: a deployment of many institutes keeps the pages of the busiest in memory,
 * and a renamed institute's new branding is a new key, so its old pages simply age out.
 */
export function brandedPageCache(limit = 500) {
  const pages = new Map<string, EncodedPage>()
  return (key: string, make: () => EncodedPage): EncodedPage => {
    let page = pages.get(key)
    if (page) pages.delete(key)
    else page = make()
    pages.set(key, page)
    if (pages.size > limit) pages.delete(pages.keys().next().value!)
    return page
  }
}
