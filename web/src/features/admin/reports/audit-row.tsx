import type { AuditEvent, AuditValues } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { InlineText } from '../../../components/ui/rich-text'
import { formatDateTime, formatNumber } from '../../../lib/format'
import '../institutions.i18n'

/** One audit event as a row: when, who (and from where), what it touched, and what it changed. */
export function AuditRow({ event }: { event: AuditEvent }) {
  const { t, i18n } = useTranslation('institutions')
  const language = i18n.language
  const who =
    event.actor.id === null ? t('audit.command_line', { username: event.actor.username }) : event.actor.username
  const id = event.entity_id === null ? '' : ` #${formatNumber(event.entity_id, language, { useGrouping: false })}`
  return (
    <tr>
      <td className="audit-when">{formatDateTime(event.at, language)}</td>
      <td>
        {who}
        {event.client_address && <div className="muted audit-address">{event.client_address}</div>}
      </td>
      <td>
        <strong>{t(`audit.actions.${event.action}`)}</strong>
        <div>
          {t(`audit.entity.${event.entity_type}`)}
          {id}
        </div>
        {event.entity_label && <div className="muted audit-label">{event.entity_label}</div>}
      </td>
      <td>
        <Changes before={event.before} after={event.after} />
      </td>
    </tr>
  )
}

/** A changed-fields diff: each field with its old value struck through and its new one beside it. */
function Changes({ before, after }: { before: AuditValues; after: AuditValues }) {
  const { t } = useTranslation('institutions')
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
  if (keys.length === 0) return <span className="muted">{t('audit.no_changes')}</span>
  const show = (value: unknown) => <AuditValue value={value} />
  return (
    <dl className="audit-changes">
      {keys.map((key) => (
        <div key={key} className="audit-change">
          <dt>{t(`audit.fields.${key}` as 'audit.fields.title', { defaultValue: key })}</dt>
          <dd>
            {before && key in before && <del>{show(before[key])}</del>}
            {before && key in before && after && key in after && <span aria-hidden="true"> → </span>}
            {after && key in after && <ins>{show(after[key])}</ins>}
          </dd>
        </div>
      ))}
    </dl>
  )
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

const isBilingual = (value: unknown): value is { en: string; ne: string } =>
  typeof value === 'object' && value !== null && 'en' in value && typeof (value as { en: unknown }).en === 'string'

/** One recorded value, worded for the reader: dates in their calendar, yes/no, bilingual text in the language. */
function AuditValue({ value }: { value: unknown }) {
  const { t, i18n } = useTranslation('institutions')
  const language = i18n.language
  if (value === null || value === undefined || value === '') return <>{t('audit.none')}</>
  if (typeof value === 'boolean') return <>{value ? t('audit.yes') : t('audit.no')}</>
  if (typeof value === 'number') return <>{formatNumber(value, language, { useGrouping: false })}</>
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return <>{formatDateTime(value, language)}</>
    return <>{t(`audit.values.${value}` as 'audit.values.changed', { defaultValue: value })}</>
  }
  if (isBilingual(value)) return <InlineText text={value} />
  return <code className="audit-json">{JSON.stringify(value)}</code>
}
