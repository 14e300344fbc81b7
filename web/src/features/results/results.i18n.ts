// The results namespace comes with the results screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/results.json'
import ne from '../../i18n/locales/ne/results.json'

registerNamespace('results', { en, ne })
