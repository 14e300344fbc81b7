import { adminMessages, planMessages } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { formatNumber } from '../../lib/format'
import { uiMessages } from './form-schemas'
import './admin.i18n'

/** The contracts' (and the forms' own) English texts we show in the admin's language; others are shown as sent. */
const keys = {
  [adminMessages.required]: 'field_messages.required',
  [adminMessages.notNull]: 'field_messages.not_null',
  [adminMessages.blank]: 'field_messages.blank',
  [adminMessages.timestamp]: 'field_messages.timestamp',
  [adminMessages.endAfterStart]: 'field_messages.end_after_start',
  [adminMessages.startBeforeEnd]: 'field_messages.start_before_end',
  [adminMessages.optionCount]: 'field_messages.option_count',
  [adminMessages.exactlyOneCorrect]: 'field_messages.exactly_one_correct',
  [adminMessages.svgTooLarge]: 'field_messages.svg_too_large',
  [adminMessages.questionCount]: 'field_messages.question_count',
  [adminMessages.duration]: 'field_messages.duration',
  [adminMessages.attempts]: 'field_messages.attempts',
  [planMessages.wholePaisa]: 'field_messages.whole_paisa',
  [planMessages.minPrice]: 'field_messages.min_price',
  [planMessages.wholeDays]: 'field_messages.whole_days',
  [planMessages.days]: 'field_messages.plan_days',
  [uiMessages.price]: 'plans.bad_price',
  [uiMessages.invalidJson]: 'create.invalid_json',
} as const

const TOO_LONG = /^Ensure this field has no more than (\d+) characters\.$/

/** A form message in the admin's language (AdminForm's `messages`). */
export function useAdminMessages() {
  const { t, i18n } = useTranslation('admin')
  return (text: string): string => {
    const key = (keys as Record<string, (typeof keys)[keyof typeof keys]>)[text]
    if (key) return t(key)
    const tooLong = TOO_LONG.exec(text)
    if (tooLong) return t('field_messages.too_long', { max: formatNumber(Number(tooLong[1]), i18n.language) })
    return text
  }
}
