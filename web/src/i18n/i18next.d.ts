import 'i18next'
import type { resources } from './i18n'
import type enInstitutions from './locales/en/institutions.json'

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    // `institutions` is loaded with its screens (lazy-resources.ts), not with the app.
    resources: (typeof resources)['en'] & { institutions: typeof enInstitutions }
  }
}
