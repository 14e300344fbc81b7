// The sittings namespace (paper sittings, printing, scanning, review) comes with those admin screens' code (see i18n.ts).
import { registerNamespace } from '../../../i18n/i18n'
import en from '../../../i18n/locales/en/sittings.json'
import ne from '../../../i18n/locales/ne/sittings.json'

registerNamespace('sittings', { en, ne })
