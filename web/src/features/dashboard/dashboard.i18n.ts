// The dashboard namespace comes with the dashboard screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/dashboard.json'
import ne from '../../i18n/locales/ne/dashboard.json'

registerNamespace('dashboard', { en, ne })
