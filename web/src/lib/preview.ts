const segmenters = new Map<string, Intl.Segmenter>()

function graphemes(text: string, locale?: string): string[] {
  const key = locale ?? ''
  let segmenter = segmenters.get(key)
  if (!segmenter) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'grapheme' })
    segmenters.set(key, segmenter)
  }
  return Array.from(segmenter.segment(text), (part) => part.segment)
}

/**
 * The first `maxLength` user-perceived characters of `text` (WEB.md): counted as grapheme clusters, so a
 * Devanagari syllable such as "क्ष" or "स्ते" is never split, with runs of whitespace folded into one space
 * (a preview is one line) and "..." added only when the text was cut.
 */
export function preview(text: string, maxLength: number, locale?: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  // A string no longer in UTF-16 units than the limit cannot have more graphemes than it: skip segmenting.
  if (flat.length <= maxLength) return flat
  const parts = graphemes(flat, locale)
  if (parts.length <= maxLength) return flat
  return `${parts.slice(0, maxLength).join('').trimEnd()}...`
}
