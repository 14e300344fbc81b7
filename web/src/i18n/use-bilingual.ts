import { useTranslation } from 'react-i18next'
import type { Language } from './i18n'

export interface BilingualText {
  en: string
  ne?: string | null
}

/**
 * Server content `{en, ne}` in the current language: `ne` when Nepali is chosen and `ne` is non-empty, else `en`;
 * and `ne` when `en` is empty (an imported Nepali-only question is shown in Nepali to everyone).
 */
export function pickLanguage(text: BilingualText | null | undefined, language: string): string {
  if (!text) return ''
  return language === 'ne' && text.ne ? text.ne : text.en || (text.ne ?? '')
}

export function useBilingual() {
  const { i18n } = useTranslation()
  return (text: BilingualText | null | undefined) => pickLanguage(text, i18n.language)
}

export function useLanguage(): Language {
  const { i18n } = useTranslation()
  return i18n.language === 'ne' ? 'ne' : 'en'
}
