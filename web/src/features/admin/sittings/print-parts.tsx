import { useQuery } from '@tanstack/react-query'
import { useId, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { sittingQueries, type Roster, type Sitting } from './sittings.api'
import './sittings.i18n'

// What the print screens (answer sheets, booklets) share: the roster they print for, the counts of blank ones
// typed by the person, and the line that says when every page is ready to print.

/** The sitting's roster once loaded, with its loading and failure states. */
export function WithRoster({ sitting, children }: { sitting: Sitting; children: (roster: Roster) => ReactNode }) {
  const { t } = useTranslation('sittings')
  const roster = useQuery(sittingQueries.roster(sitting.id))
  if (roster.isError) return <Alert kind="error">{t('roster.load_failed')}</Alert>
  if (!roster.data) return <Loading label={t('roster.loading')} />
  return children(roster.data)
}

/** A count typed by the person, kept within 0..max. */
export function useCount(max: number) {
  const [text, setText] = useState('0')
  return { text, setText, value: Math.min(max, Math.max(0, Number.parseInt(text, 10) || 0)) }
}

export function CountField({
  label,
  hint,
  max,
  count,
}: {
  label: string
  hint: string
  max: number
  count: ReturnType<typeof useCount>
}) {
  const id = useId()
  return (
    <div className="field sittings-blank">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        value={count.text}
        onChange={(event) => count.setText(event.target.value)}
        aria-describedby={`${id}-hint`}
      />
      <span className="field__hint" id={`${id}-hint`}>
        {hint}
      </span>
    </div>
  )
}

interface PrintReadinessProps {
  /** Whose texts: the answer sheets' or the booklets'. */
  kind: 'sheets' | 'booklets'
  ready: number
  total: number
  failed: boolean
}

/** How many pages are ready (or that one failed), and Print once all of them are. */
export function PrintReadiness({ kind, ready, total, failed }: PrintReadinessProps) {
  const { t } = useTranslation('sittings')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  return (
    <>
      <div aria-live="polite">
        {failed ? (
          <Alert kind="error">{t(`${kind}.load_failed`)}</Alert>
        ) : ready < total ? (
          <p>{t(`${kind}.preparing`, { ready: n(ready), total: n(total) })}</p>
        ) : (
          <p>{t(`${kind}.ready`, { count: total, n: n(total) })}</p>
        )}
      </div>
      <div className="actions">
        <Button variant="primary" disabled={total === 0 || ready < total} onClick={() => window.print()}>
          {t(`${kind}.print`)}
        </Button>
      </div>
    </>
  )
}
