// The institute's own screens' words, with their code (see i18n.ts).
import { registerNamespace } from '../../../i18n/i18n'
import en from '../../../i18n/locales/en/institute.json'
import ne from '../../../i18n/locales/ne/institute.json'

registerNamespace('institute', { en, ne })
