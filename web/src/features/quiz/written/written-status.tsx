import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import type { WrittenSnapshot } from './written-snapshot'
import '../quiz.i18n'

/**
 * After the hand-in: written answers wait for marking, and photos still on the phone keep going until the upload
 * grace ends (API.md), which the learner is told, with those that did not arrive once it has.
 */
export function WrittenAfterHandIn({ snapshot }: { snapshot: WrittenSnapshot }) {
  const { t } = useTranslation('quiz')
  const language = useLanguage()
  const hasWritten = Object.keys(snapshot.answered).length > 0
  if (!hasWritten && snapshot.closed === null) return null
  return (
    <div className="written-after" role="status">
      {hasWritten && <p className="muted">{t('written.after.marking')}</p>}
      {snapshot.closed && snapshot.closed.lost > 0 ? (
        <Alert kind="error">
          {t('written.after.closed', {
            count: snapshot.closed.lost,
            pages: formatNumber(snapshot.closed.lost, language),
          })}
        </Alert>
      ) : snapshot.pagesLeft > 0 ? (
        <Alert kind="info">
          {t(snapshot.status === 'offline' ? 'written.after.sending_offline' : 'written.after.sending', {
            count: snapshot.pagesLeft,
            pages: formatNumber(snapshot.pagesLeft, language),
          })}
        </Alert>
      ) : null}
    </div>
  )
}
