// The institutions namespace (attempts, statistics, learners) comes with those admin screens' code (see i18n.ts).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/institutions.json'
import ne from '../../i18n/locales/ne/institutions.json'

registerNamespace('institutions', { en, ne })
