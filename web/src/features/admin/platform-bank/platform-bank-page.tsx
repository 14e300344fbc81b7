import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { AdminNav } from '../admin-nav'
import { PlatformBankBrowser } from './platform-bank-browser'
import { useCopyFromPlatform } from './platform-bank.api'
import '../admin.css'
import '../../../i18n/platform.i18n'

// WEB.md "Institutes": an institute admin's "Platform bank": browse, preview, "Copy to my bank". A copy names its
// source; the institute's bank shows "Update available" on it when the platform revises the question (bank-row.tsx).

type Outcome = { kind: 'copied'; id: number; copy: number } | { kind: 'failed' } | null

export function Component() {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const copy = useCopyFromPlatform()
  const [copying, setCopying] = useState<number | null>(null)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const n = (value: number) => formatNumber(value, language)
  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('bank.title')}</h1>
      <p>{t('bank.intro')}</p>
      <div aria-live="polite">
        {outcome?.kind === 'copied' && (
          <Alert kind="success">{t('bank.copied', { id: n(outcome.id), copy: n(outcome.copy) })}</Alert>
        )}
        {outcome?.kind === 'failed' && <Alert kind="error">{t('bank.copy_failed')}</Alert>}
      </div>
      <PlatformBankBrowser
        base="/admin/platform-bank/questions/"
        action={(row) => (
          <Button
            small
            variant="primary"
            disabled={copying === row.id}
            aria-label={t('bank.copy_named', { id: n(row.id) })}
            onClick={() => {
              setCopying(row.id)
              setOutcome(null)
              copy.mutate(row.id, {
                onSuccess: (question) => setOutcome({ kind: 'copied', id: row.id, copy: question.id }),
                onError: () => setOutcome({ kind: 'failed' }),
                onSettled: () => setCopying(null),
              })
            }}
          >
            {copying === row.id ? t('bank.copying') : t('bank.copy')}
          </Button>
        )}
      />
    </div>
  )
}
