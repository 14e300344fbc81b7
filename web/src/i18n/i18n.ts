import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import enAuth from './locales/en/auth.json'
import enCommon from './locales/en/common.json'
import enNav from './locales/en/nav.json'
import neAuth from './locales/ne/auth.json'
import neCommon from './locales/ne/common.json'
import neNav from './locales/ne/nav.json'

export const LANGUAGE_KEY = 'language'
export type Language = 'en' | 'ne'

/**
 * The shell's namespaces: the layout and the first screen (login). A feature's own namespace comes
 * with its code (registerNamespace in `<feature>.i18n.ts`), so the first screen does not download the admin's
 * or the quiz's texts. Every namespace's type is in i18next.d.ts.
 */
export const resources = {
  en: {
    common: enCommon,
    nav: enNav,
    auth: enAuth,
  },
  ne: {
    common: neCommon,
    nav: neNav,
    auth: neAuth,
  },
} as const

/** Feature namespaces registered before i18n starts; later ones are added to the running instance. */
const registered: Partial<Record<Language, Record<string, object>>> = {}

export function registerNamespace(namespace: string, bundles: Record<Language, object>) {
  for (const language of ['en', 'ne'] as const) {
    if (i18n.isInitialized) i18n.addResourceBundle(language, namespace, bundles[language])
    else registered[language] = { ...registered[language], [namespace]: bundles[language] }
  }
}

export function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'ne' ? 'ne' : 'en'
  } catch {
    return 'en'
  }
}

export function initI18n(language: Language = storedLanguage()) {
  void i18n.use(initReactI18next).init({
    resources: {
      en: { ...resources.en, ...registered.en },
      ne: { ...resources.ne, ...registered.ne },
    },
    lng: language,
    fallbackLng: 'en',
    ns: Object.keys(resources.en),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
  })
  document.documentElement.lang = language
  return i18n
}

/** One language for the whole app (WEB.md): the nav switcher, every screen toggle and the profile set this. */
export function setLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_KEY, language)
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  document.documentElement.lang = language
  void i18n.changeLanguage(language)
}

export default i18n
