// The learner's written results namespace comes with the report's code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/written.json'
import ne from '../../i18n/locales/ne/written.json'

registerNamespace('written', { en, ne })
