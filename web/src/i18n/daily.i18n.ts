// The daily set's texts come with its code (the dashboard's card is loaded apart from the first screen).
import { registerNamespace } from './i18n'
import en from './locales/en/daily.json'
import ne from './locales/ne/daily.json'

registerNamespace('daily', { en, ne })
