import i18n, { type PostProcessorModule } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { toDevanagariDigits } from '../lib/digits'
import enAuth from './locales/en/auth.json'
import enCommon from './locales/en/common.json'
import enNav from './locales/en/nav.json'

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
} as const

/** Feature namespaces registered before i18n starts; later ones are added to the running instance. */
const registered: Partial<Record<Language, Record<string, object>>> = {}

function addBundle(language: Language, namespace: string, bundle: object) {
  if (i18n.isInitialized) i18n.addResourceBundle(language, namespace, bundle)
  else registered[language] = { ...registered[language], [namespace]: bundle }
}

export function registerNamespace(namespace: string, bundles: Record<Language, object>) {
  for (const language of ['en', 'ne'] as const) addBundle(language, namespace, bundles[language])
}

/**
 * The shell's Nepali texts come in their own chunk: a visitor in English does not download them, and a learner
 * in Nepali gets them before the first render (main.tsx) or when switching. English is always there (fallback).
 */
let nepaliShell: Promise<void> | undefined
export function loadLanguage(language: Language): Promise<void> {
  if (language === 'en') return Promise.resolve()
  nepaliShell ??= import('./shell-ne').then(({ shellNe }) => {
    for (const [namespace, bundle] of Object.entries(shellNe)) addBundle('ne', namespace, bundle)
  })
  return nepaliShell
}

/** The language this browser's visitor chose (the switcher, a toggle, an earlier login), or null if none yet. */
export function chosenLanguage(): Language | null {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY)
    return stored === 'ne' || stored === 'en' ? stored : null
  } catch {
    return null
  }
}

export function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'ne' ? 'ne' : 'en'
  } catch {
    return 'en'
  }
}

/**
 * WEB.md: in Nepali every number is written in Devanagari digits. Counts, numbers and dates interpolated into a
 * translation come out right whatever the caller passed; numbers shown outside t() go through lib/format.
 */
const devanagariDigits: PostProcessorModule = {
  type: 'postProcessor',
  name: 'devanagari-digits',
  process: (value, _key, _options, translator: { language?: string }) =>
    translator.language === 'ne' ? toDevanagariDigits(value) : value,
}

export function initI18n(language: Language = storedLanguage()) {
  void i18n
    .use(devanagariDigits)
    .use(initReactI18next)
    .init({
      postProcess: ['devanagari-digits'],
      resources: {
        en: { ...resources.en, ...registered.en },
        ne: { ...registered.ne },
      },
      lng: language,
      fallbackLng: 'en',
      ns: Object.keys(resources.en),
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      initAsync: false,
    })
  showLanguage(language)
  return i18n
}

/**
 * The page's language, and the install manifest in it (decision 019): "Add to Home screen" names the app in the
 * language the learner reads it in. Both manifests are the same app (one `id`).
 */
function showLanguage(language: Language) {
  // The build renders the visitor screens without a document (prerender.tsx); index.html says English there.
  if (typeof document === 'undefined') return
  document.documentElement.lang = language
  document
    .querySelector('link[rel="manifest"]')
    ?.setAttribute('href', language === 'ne' ? '/manifest-ne.webmanifest' : '/manifest.webmanifest')
}

/** One language for the whole app (WEB.md): the nav switcher, every screen toggle and the profile set this. */
export function setLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_KEY, language)
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  showLanguage(language)
  void loadLanguage(language).then(() => i18n.changeLanguage(language))
}

export default i18n
