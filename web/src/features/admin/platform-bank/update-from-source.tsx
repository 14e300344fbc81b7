import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { useUpdateFromSource } from './platform-bank.api'
import '../../../i18n/platform.i18n'
import './platform-bank.css'

const refusals: Record<string, 'update.source_gone' | 'update.none'> = {
  source_gone: 'update.source_gone',
  no_update_available: 'update.none',
}

/**
 * A copied question's "Update available" in the institute's bank (WEB.md "Institutes"): the platform revised it
 * since the copy, and the admin takes the revision here, or leaves the copy as it is.
 */
export function UpdateAvailable({ id }: { id: number }) {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const update = useUpdateFromSource()
  const n = formatNumber(id, language)
  const error = update.error
  const refusal = error instanceof ApiError ? refusals[error.code] : undefined
  return (
    <span className="update-from-source">
      <span className="update-available" title={t('update.hint')}>
        {t('update.available')}
      </span>
      <span className="visually-hidden">{t('update.hint')}</span>{' '}
      {!update.isSuccess && (
        <Button
          small
          disabled={update.isPending}
          aria-label={t('update.take_named', { id: n })}
          onClick={() => update.mutate(id)}
        >
          {update.isPending ? t('update.taking') : t('update.take')}
        </Button>
      )}
      <span role="status">
        {update.isSuccess && t('update.taken', { id: n })}
        {update.isError && t(refusal ?? 'update.failed')}
      </span>
    </span>
  )
}
