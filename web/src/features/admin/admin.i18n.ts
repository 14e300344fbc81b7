// The admin namespace comes with the admin screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/admin.json'
import ne from '../../i18n/locales/ne/admin.json'

registerNamespace('admin', { en, ne })
