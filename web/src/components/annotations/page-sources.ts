import { writtenAnswerLimits } from '@quiz/contracts/rules/written-answers'

// Which image of a written answer's page the browser fetches (docs/decisions/078): apart from the drawing, so that a
// query can start the first page's fetch before the page is drawn.

export interface PageImage {
  url: string
  /** The page `writtenAnswerLimits.phoneWidth` px wide, at most its own width (docs/decisions/078). */
  phone_url?: string
  width: number
  height: number
}

/**
 * The page's candidates for the browser to choose from by the width it is drawn at (`sizes`) and the screen's
 * density: on a phone the rendition (a sixth of the bytes), on a wide screen or zoomed in the full page. A page no
 * wider than the rendition has only the rendition, which is then the whole page, smaller on the wire.
 */
export function pageSources(page: PageImage): { src: string; srcSet?: string } {
  if (!page.phone_url) return { src: page.url }
  const phoneWidth = Math.min(writtenAnswerLimits.phoneWidth, page.width)
  if (phoneWidth >= page.width) return { src: page.phone_url }
  return { src: page.url, srcSet: `${page.phone_url} ${phoneWidth}w, ${page.url} ${page.width}w` }
}

/**
 * Starts fetching the page's image as an <img> drawn `sizes` wide would, before it is drawn: the browser chooses the
 * same candidate and the <img> finds it in its cache.
 */
export function preloadPage(page: PageImage, sizes: string) {
  const image = new Image()
  image.fetchPriority = 'high'
  const { src, srcSet } = pageSources(page)
  if (srcSet) {
    image.sizes = sizes
    image.srcset = srcSet
  }
  image.src = src
}
