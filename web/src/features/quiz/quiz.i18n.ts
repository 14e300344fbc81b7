// The quiz namespace comes with the quiz screens' code, not with the first screen (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/quiz.json'
import ne from '../../i18n/locales/ne/quiz.json'

registerNamespace('quiz', { en, ne })
