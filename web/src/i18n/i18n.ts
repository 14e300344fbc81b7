import i18n, { type PostProcessorModule } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { toDevanagariDigits } from '../lib/digits'
import enAdmin from './locales/en/admin.json'
import enAuth from './locales/en/auth.json'
import enCommon from './locales/en/common.json'
import enDashboard from './locales/en/dashboard.json'
import enNav from './locales/en/nav.json'
import enPayments from './locales/en/payments.json'
import enPractice from './locales/en/practice.json'
import enProfile from './locales/en/profile.json'
import enProgress from './locales/en/progress.json'
import enQuiz from './locales/en/quiz.json'
import enResults from './locales/en/results.json'
import neAdmin from './locales/ne/admin.json'
import neAuth from './locales/ne/auth.json'
import neCommon from './locales/ne/common.json'
import neDashboard from './locales/ne/dashboard.json'
import neNav from './locales/ne/nav.json'
import nePayments from './locales/ne/payments.json'
import nePractice from './locales/ne/practice.json'
import neProfile from './locales/ne/profile.json'
import neProgress from './locales/ne/progress.json'
import neQuiz from './locales/ne/quiz.json'
import neResults from './locales/ne/results.json'

export const LANGUAGE_KEY = 'language'
export type Language = 'en' | 'ne'

export const resources = {
  en: {
    common: enCommon,
    nav: enNav,
    auth: enAuth,
    dashboard: enDashboard,
    quiz: enQuiz,
    results: enResults,
    profile: enProfile,
    admin: enAdmin,
    payments: enPayments,
    progress: enProgress,
    practice: enPractice,
  },
  ne: {
    common: neCommon,
    nav: neNav,
    auth: neAuth,
    dashboard: neDashboard,
    quiz: neQuiz,
    results: neResults,
    profile: neProfile,
    admin: neAdmin,
    payments: nePayments,
    progress: neProgress,
    practice: nePractice,
  },
} as const

export const namespaces = Object.keys(resources.en) as (keyof typeof resources.en)[]

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
      resources,
      lng: language,
      fallbackLng: 'en',
      ns: namespaces,
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
