import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatDate } from '../../../lib/format'
import type { AdminQuestion } from './quizzes.api'
import '../admin.i18n'

/**
 * Before an edit of a question whose key was decided: the save writes a new version scored on the option marked
 * here, and the decision stays with the attempts already taken (docs/decisions/036). After several options were
 * accepted or the question was dropped, the editor (one right option) cannot carry the decision over, so it says so.
 */
export function KeyDecisionNotice({ question }: { question: AdminQuestion }) {
  const { t } = useTranslation('admin')
  const language = useLanguage()
  const key = question.key
  if (!key) return null
  const numbers = key.correct_option_ids
    .map((id) => question.options.findIndex((option) => option.id === id) + 1)
    .filter((n) => n > 0)
  const action =
    key.action === 'drop'
      ? t(`question_form.key_notice.drop_${key.drop_policy ?? 'full_marks_all'}`)
      : key.action === 'accept_several'
        ? t('question_form.key_notice.accept_several', { options: numbers.join(', ') })
        : t(`question_form.key_notice.${key.action}`)
  return (
    <Alert kind="info">
      {t('question_form.key_notice.text', { date: formatDate(key.decided_at, language), action })}
      {key.action === 'accept_several' || key.action === 'drop'
        ? ` ${t('question_form.key_notice.not_carried')}`
        : null}
    </Alert>
  )
}
