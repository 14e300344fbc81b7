import { legacyFontToolLimits } from '@quiz/contracts'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { paths } from '../../../lib/paths'
import { AdminNav } from '../admin-nav'
import { convertLegacyText, type LegacyFont } from '../import/import.api'
import { useDebounced } from '../paper/use-debounced'
import '../admin.css'
import '../import/import.css'
import '../import/import.i18n'

/** The server is asked when typing pauses, not at every key. */
export const CONVERT_DEBOUNCE_MS = 300

/** /admin/font-converter: Preeti or Kantipur text in, Unicode out as it is typed, and a button to copy it. */
export function Component() {
  const { t } = useTranslation('import')
  const id = useId()
  const [font, setFont] = useState<LegacyFont>('preeti')
  const [text, setText] = useState('')
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null)
  const settled = useDebounced(text, CONVERT_DEBOUNCE_MS)
  const conversion = useQuery({
    queryKey: ['admin', 'legacy-font', font, settled],
    queryFn: ({ signal }) => convertLegacyText(settled, font, signal),
    enabled: settled.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  })
  const unicode = text.trim() === '' ? '' : (conversion.data?.unicode ?? '')
  const busy = text !== settled || conversion.isFetching

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(unicode)
      setCopied('copied')
    } catch {
      setCopied('failed')
    }
  }

  return (
    <div className="admin converter">
      <AdminNav />
      <h1>{t('converter.title')}</h1>
      <p>{t('converter.intro')}</p>
      <p>
        <Link to={paths.adminImport()}>{t('converter.back')}</Link>
      </p>
      <div className="card">
        <fieldset className="import-mode converter-font">
          <legend>{t('converter.font')}</legend>
          {(['preeti', 'kantipur'] as const).map((choice) => (
            <label key={choice} className="checkbox">
              <input
                type="radio"
                name={`${id}-font`}
                value={choice}
                checked={font === choice}
                onChange={() => setFont(choice)}
              />
              {t(`converter.${choice}`)}
            </label>
          ))}
        </fieldset>
        <div className="converter-fields">
          <div className="field">
            <label htmlFor={`${id}-input`}>{t('converter.input')}</label>
            <textarea
              id={`${id}-input`}
              className="converter-original"
              value={text}
              maxLength={legacyFontToolLimits.textLength}
              spellCheck={false}
              aria-describedby={`${id}-input-hint`}
              onChange={(event) => {
                setText(event.target.value)
                setCopied(null)
              }}
            />
            <span id={`${id}-input-hint`} className="field__hint">
              {t('converter.input_hint')}
            </span>
          </div>
          <div className="field">
            <label htmlFor={`${id}-output`}>{t('converter.output')}</label>
            <textarea
              id={`${id}-output`}
              className="converter-output"
              lang="ne"
              readOnly
              value={unicode}
              aria-busy={busy}
            />
            <span className="field__hint" aria-live="polite">
              {busy && text.trim() !== '' ? t('converter.converting') : ''}
            </span>
          </div>
        </div>
        {conversion.isError && <Alert kind="error">{t('converter.failed')}</Alert>}
        <p className="actions">
          <Button variant="primary" disabled={unicode === '' || busy} onClick={() => void copy()}>
            {t('converter.copy')}
          </Button>
          {copied === 'copied' && <span role="status">{t('converter.copied')}</span>}
        </p>
        {copied === 'failed' && <Alert kind="error">{t('converter.copy_failed')}</Alert>}
      </div>
    </div>
  )
}
