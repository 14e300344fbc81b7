// The notifications namespace comes with its screen's code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/notifications.json'
import ne from '../../i18n/locales/ne/notifications.json'

registerNamespace('notifications', { en, ne })
