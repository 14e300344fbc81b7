// The profile namespace comes with the profile screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/profile.json'
import ne from '../../i18n/locales/ne/profile.json'

registerNamespace('profile', { en, ne })
