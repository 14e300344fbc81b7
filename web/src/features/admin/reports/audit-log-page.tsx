import { AuditActionSchema, AuditEntityTypeSchema, type AuditAction, type AuditEntityType } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import { formatDate } from '../../../lib/format'
import { AUDIT_PAGE_SIZE, reportQueries, type AuditFilters } from './reports.api'
import { AdminNav } from '../admin-nav'
import { localInputToIso } from '../datetime'
import '../admin.css'
import { PagedTable } from '../ui'
import { AuditRow } from './audit-row'
import { Button } from '../../../components/ui/button'

const ENTITY_TYPES = AuditEntityTypeSchema.options
const ACTIONS = AuditActionSchema.options
const NO_FILTERS: AuditFilters = { actor: '', entity_type: '', action: '', from: '', to: '' }

interface Draft {
  actor: string
  entity_type: AuditEntityType | ''
  action: AuditAction | ''
  /** `yyyy-mm-dd` from the date inputs, days in the admin's time zone. */
  fromDay: string
  toDay: string
}
const EMPTY_DRAFT: Draft = { actor: '', entity_type: '', action: '', fromDay: '', toDay: '' }

/** The day after a `yyyy-mm-dd`, so "to" includes the whole chosen day (the API's `to` is exclusive). */
function nextDay(day: string) {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString().slice(0, 10)
}

const toFilters = (draft: Draft): AuditFilters => ({
  actor: draft.actor.trim(),
  entity_type: draft.entity_type,
  action: draft.action,
  from: (draft.fromDay && localInputToIso(`${draft.fromDay}T00:00`)) || '',
  to: (draft.toDay && localInputToIso(`${nextDay(draft.toDay)}T00:00`)) || '',
})

/** /admin/audit: who changed what and when, newest first, with filters; read-only. */
export function Component() {
  const { t, i18n } = useTranslation('institutions')
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT)
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS)
  const [page, setPage] = useState(1)
  const audit = useQuery({ ...reportQueries.audit(filters, page), placeholderData: (previous) => previous })
  const language = i18n.language

  const apply = (event: FormEvent) => {
    event.preventDefault()
    setFilters(toFilters(draft))
    setPage(1)
  }
  const clear = () => {
    setDraft(EMPTY_DRAFT)
    setFilters(NO_FILTERS)
    setPage(1)
  }
  const set = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }))
  // The date inputs are the browser's Gregorian ones; in Nepali the chosen day is also shown in Bikram Sambat.
  const bsHint = (day: string) => {
    const noon = language === 'ne' && day ? localInputToIso(`${day}T12:00`) : null
    return noon ? formatDate(noon, language) : undefined
  }

  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('audit.title')}</h1>
      <p className="muted">{t('audit.intro')}</p>
      <form className="admin-toolbar audit-filters" aria-label={t('audit.filters')} onSubmit={apply}>
        <div className="field">
          <label htmlFor="audit-actor">{t('audit.actor')}</label>
          <input
            id="audit-actor"
            value={draft.actor}
            autoComplete="off"
            onChange={(event) => set({ actor: event.target.value })}
          />
        </div>
        <ChoiceField
          id="audit-entity"
          label={t('audit.entity_type')}
          value={draft.entity_type}
          choices={ENTITY_TYPES.map((type) => [type, t(`audit.entity.${type}`)])}
        >
          {(value) => set({ entity_type: value as Draft['entity_type'] })}
        </ChoiceField>
        <ChoiceField
          id="audit-action"
          label={t('audit.action')}
          value={draft.action}
          choices={ACTIONS.map((action) => [action, t(`audit.actions.${action}`)])}
        >
          {(value) => set({ action: value as Draft['action'] })}
        </ChoiceField>
        <DayField id="audit-from" label={t('audit.from')} value={draft.fromDay} hint={bsHint(draft.fromDay)}>
          {(value) => set({ fromDay: value })}
        </DayField>
        <DayField id="audit-to" label={t('audit.to')} value={draft.toDay} hint={bsHint(draft.toDay)}>
          {(value) => set({ toDay: value })}
        </DayField>
        <div className="actions">
          <Button type="submit" variant="primary">
            {t('audit.apply')}
          </Button>
          <Button onClick={clear}>{t('audit.clear')}</Button>
        </div>
      </form>

      <PagedTable
        label={t('audit.title')}
        query={audit}
        pageSize={AUDIT_PAGE_SIZE}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`audit.${key}`, values)}
        className="audit-table"
        columns={[
          { label: t('audit.when') },
          { label: t('audit.who') },
          { label: t('audit.what') },
          { label: t('audit.changes') },
        ]}
      >
        {(event) => <AuditRow key={event.id} event={event} />}
      </PagedTable>
    </div>
  )
}

/** A select of the API's values, worded in the current language, with "Any" first. */
function ChoiceField({
  id,
  label,
  value,
  choices,
  children: onChange,
}: {
  id: string
  label: string
  value: string
  choices: [value: string, label: string][]
  children: (value: string) => void
}) {
  const { t } = useTranslation('institutions')
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('audit.any')}</option>
        {choices.map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </div>
  )
}

function DayField({
  id,
  label,
  value,
  hint,
  children: onChange,
}: {
  id: string
  label: string
  value: string
  hint?: string
  children: (value: string) => void
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="date"
        value={value}
        aria-describedby={hint ? `${id}-bs` : undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      {hint && (
        <span id={`${id}-bs`} className="field__hint">
          {hint}
        </span>
      )}
    </div>
  )
}
