// The payments namespace comes with the plans and payment screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/payments.json'
import ne from '../../i18n/locales/ne/payments.json'

registerNamespace('payments', { en, ne })
