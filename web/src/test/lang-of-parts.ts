/**
 * WCAG 3.1.2 (language of parts), as the accessibility audit of issue 61 read it: each text of the page whose script
 * is the other language's than the `lang` it inherits (English in a Nepali page, Devanagari in an English one).
 * Texts mixing both scripts count in an English page only when they hold Devanagari (an example quoted in a help
 * text); a Nepali sentence naming `OTP` or `CSV` is not counted. Returns each such text, trimmed.
 */
export function languageFindings(root: Element, pageLanguage: 'en' | 'ne'): string[] {
  const found: string[] = []
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim() ?? ''
    const parent = node.parentElement
    if (!text || !parent || parent.closest('script, style, [aria-hidden="true"], annotation')) continue
    // The page's own language is `pageLanguage` (jsdom's <html lang> is not the app's).
    const holder = parent.closest('[lang]')
    const own = holder && holder !== root.ownerDocument.documentElement ? holder.getAttribute('lang') : pageLanguage
    const lang = own?.startsWith('ne') ? 'ne' : 'en'
    const devanagari = /[\u0900-\u097F]/.test(text)
    const latinWord = /[A-Za-z]*[a-z][A-Za-z]*/.test(text) && /[A-Za-z]{3,}/.test(text)
    if (lang === 'en' ? devanagari : latinWord && !devanagari) found.push(text)
  }
  return found
}
