// The institute's own screens' words, with their code (see i18n.ts).
import { registerNamespace } from './i18n'
import en from './locales/en/institute.json'
import ne from './locales/ne/institute.json'

registerNamespace('institute', { en, ne })
