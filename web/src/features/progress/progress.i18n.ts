// The progress namespace comes with its screen's code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/progress.json'
import ne from '../../i18n/locales/ne/progress.json'

registerNamespace('progress', { en, ne })
