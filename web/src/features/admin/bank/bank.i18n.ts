// The bank namespace (question bank, a quiz's paper) comes with those admin screens' code (see i18n.ts).
import { registerNamespace } from '../../../i18n/i18n'
import en from '../../../i18n/locales/en/bank.json'
import ne from '../../../i18n/locales/ne/bank.json'

registerNamespace('bank', { en, ne })
