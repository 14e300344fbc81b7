// The shell's namespaces in Nepali, loaded by loadLanguage('ne') (i18n.ts) rather than with the first screen.
import auth from './locales/ne/auth.json'
import common from './locales/ne/common.json'
import nav from './locales/ne/nav.json'

export const shellNe = { common, nav, auth }
