// The import namespace (the Import page and the Nepali font converter) comes with those screens' code (see i18n.ts).
import { registerNamespace } from '../../../i18n/i18n'
import en from '../../../i18n/locales/en/import.json'
import ne from '../../../i18n/locales/ne/import.json'

registerNamespace('import', { en, ne })
