// The answer controls' texts come with their code (the exam and practice screens), not with the first screen.
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/answers.json'
import ne from '../../i18n/locales/ne/answers.json'

registerNamespace('answers', { en, ne })
