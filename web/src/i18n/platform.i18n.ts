// The platform bank, national mocks and the platform admins' own screens' words, with their code (see i18n.ts).
import { registerNamespace } from './i18n'
import en from './locales/en/platform.json'
import ne from './locales/ne/platform.json'

registerNamespace('platform', { en, ne })
