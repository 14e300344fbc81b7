// The live namespace comes with the screens that show live mocks (dashboard, instructions, leaderboard).
import { registerNamespace } from '../../i18n/i18n'
import en from '../../i18n/locales/en/live.json'
import ne from '../../i18n/locales/ne/live.json'

registerNamespace('live', { en, ne })
