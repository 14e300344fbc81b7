// The sections namespace (shared with the exam screens; see features/quiz/sections.i18n.ts) for the report card.
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/sections.json'
import ne from '../../i18n/locales/ne/sections.json'

registerNamespace('sections', { en, ne })
