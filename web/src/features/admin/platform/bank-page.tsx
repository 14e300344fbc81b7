import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { BankQuestionEditor } from '../bank/bank-question-editor'
import { PlatformBankBrowser } from '../platform-bank/platform-bank-browser'
import '../../../i18n/platform.i18n'
import '../admin.i18n'
import '../bank/bank.css'

type Editor = { id: number | null; run: number } | null

// WEB.md "Institutes": the platform's bank on its admins' screens, "the admin bank's screens": the bank's own
// question form writes it (at /api/platform/bank/questions/, API.md "Banks"); a national mock's paper names these
// numbers, and every institute's admins browse and copy them.
export function Component() {
  const { t } = useTranslation('platform')
  const language = useLanguage()
  const [editor, setEditor] = useState<Editor>(null)
  const [saved, setSaved] = useState(false)
  const open = (id: number | null) => {
    setSaved(false)
    setEditor((current) => ({ id, run: (current?.run ?? 0) + 1 }))
  }
  return (
    <>
      <h1>{t('bank.title')}</h1>
      <p>{t('platform.bank.intro')}</p>
      <p className="actions">
        <Button variant="primary" onClick={() => open(null)}>
          {t('platform.bank.new_question')}
        </Button>
      </p>
      <div aria-live="polite">{saved && <Alert kind="success">{t('platform.bank.saved')}</Alert>}</div>
      {editor && (
        <BankQuestionEditor
          key={editor.run}
          id={editor.id}
          platform
          onDone={(result) => {
            setEditor(null)
            setSaved(result === 'saved')
          }}
        />
      )}
      <PlatformBankBrowser
        base="/platform/bank/questions/"
        action={(row) => (
          <Button
            small
            aria-label={t('platform.bank.edit_named', { id: formatNumber(row.id, language) })}
            onClick={() => open(row.id)}
          >
            {t('platform.bank.edit')}
          </Button>
        )}
      />
    </>
  )
}
