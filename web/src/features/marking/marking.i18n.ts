// The marking namespace comes with the marking screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/marking.json'
import ne from '../../i18n/locales/ne/marking.json'

registerNamespace('marking', { en, ne })
