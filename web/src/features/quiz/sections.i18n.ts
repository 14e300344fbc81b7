// The sections namespace (sectioned papers on the exam, instructions and report screens) comes with those screens.
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/sections.json'
import ne from '../../i18n/locales/ne/sections.json'

registerNamespace('sections', { en, ne })
