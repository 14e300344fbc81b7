import 'i18next'
import type { locales } from './locales'

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: (typeof locales)['en']
  }
}
