import { useTranslation } from 'react-i18next'
import type { Language } from './i18n'

export interface BilingualText {
  en: string
  ne?: string | null
}

/** A bilingual text as shown: its words, and the language they are in (which may not be the one asked for). */
export interface PickedText {
  text: string
  language: Language
}

/**
 * Server content `{en, ne}` in the current language: `ne` when Nepali is chosen and `ne` is non-empty, else `en`;
 * and `ne` when `en` is empty (an imported Nepali-only question is shown in Nepali to everyone).
 */
export function pickText(text: BilingualText | null | undefined, language: string): PickedText {
  const asked: Language = language === 'ne' ? 'ne' : 'en'
  if (!text) return { text: '', language: asked }
  if (asked === 'ne' && text.ne) return { text: text.ne, language: 'ne' }
  if (text.en) return { text: text.en, language: 'en' }
  if (text.ne) return { text: text.ne, language: 'ne' }
  return { text: '', language: asked }
}

export function pickLanguage(text: BilingualText | null | undefined, language: string): string {
  return pickText(text, language).text
}

/**
 * The `lang` an element showing a picked text needs on a page in `pageLanguage`: the text's own language when it is
 * the other one (a fallback), so that a screen reader reads it with that language's voice (WCAG 3.1.2); none when
 * the page's `<html lang>` already says it.
 */
export function langOf(picked: PickedText, pageLanguage: string): Language | undefined {
  const page: Language = pageLanguage === 'ne' ? 'ne' : 'en'
  return picked.text !== '' && picked.language !== page ? picked.language : undefined
}

export function useBilingual() {
  const { i18n } = useTranslation()
  return (text: BilingualText | null | undefined) => pickLanguage(text, i18n.language)
}

/**
 * Like `useBilingual`, for a text drawn in an element of its own: the words and the `lang` that element carries
 * (`<h1 lang={title.lang}>{title.text}</h1>`), undefined when the text is in the page's language.
 */
export function useBilingualLang() {
  const { i18n } = useTranslation()
  return (text: BilingualText | null | undefined) => {
    const picked = pickText(text, i18n.language)
    return { text: picked.text, lang: langOf(picked, i18n.language) }
  }
}

const DEVANAGARI = /[\u0900-\u097F]/
const LATIN = /[A-Za-z]/

/**
 * The `lang` a free text of no stated language needs on a page in `pageLanguage` (a topic, a tag: one string, typed
 * in either script): its script's language when that is not the page's, none when mixed or in the page's.
 */
export function scriptLang(text: string | null | undefined, pageLanguage: string): Language | undefined {
  if (!text) return undefined
  const script: Language | null = DEVANAGARI.test(text)
    ? LATIN.test(text)
      ? null
      : 'ne'
    : LATIN.test(text)
      ? 'en'
      : null
  return script && script !== (pageLanguage === 'ne' ? 'ne' : 'en') ? script : undefined
}

/** `scriptLang` for the current page language. */
export function useScriptLang() {
  const { i18n } = useTranslation()
  return (text: string | null | undefined) => scriptLang(text, i18n.language)
}

export function useLanguage(): Language {
  const { i18n } = useTranslation()
  return i18n.language === 'ne' ? 'ne' : 'en'
}
