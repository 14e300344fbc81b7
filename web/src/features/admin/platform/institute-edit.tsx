import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { useAdminMessages } from '../forms'
import { fieldError } from './field-errors'
import { instituteFields, InstituteFields, type InstituteDraft } from './institute-fields'
import { useUpdateInstitute, type PlatformInstitute } from './platform.api'
import '../../../i18n/platform.i18n'
import '../admin.i18n'
import './platform.css'

/**
 * Which of `hosts` another institute of the list already has, to name it at the field after a 409 host_taken (the
 * server's detail is English only and names no field). Null when the list does not show it (the platform's own
 * address, or an institute on another page).
 */
export function takenHost(hosts: string[], id: number, institutes: PlatformInstitute[]) {
  for (const host of hosts)
    for (const other of institutes) if (other.id !== id && other.hosts.includes(host)) return { host, other }
  return null
}

/**
 * "Edit" of one institute on the platform's Institutes screen (WEB.md "Institutes": create, edit, suspend): its
 * names, addresses, colour and open registration, as PATCH takes them. Status stays with Suspend / Reactivate on
 * the row, where suspending asks first; the API has no plan per institute (plans are each institute's own).
 */
export function EditInstitute({
  institute,
  institutes,
  onDone,
}: {
  institute: PlatformInstitute
  institutes: PlatformInstitute[]
  onDone: (saved: string | null) => void
}) {
  const { t } = useTranslation('platform')
  const messages = useAdminMessages()
  const update = useUpdateInstitute()
  const heading = useRef<HTMLHeadingElement>(null)
  const [draft, setDraft] = useState<InstituteDraft>({
    nameEn: institute.name.en,
    nameNe: institute.name.ne,
    hosts: institute.hosts.join('\n'),
    colour: institute.colour,
    open: institute.open_registration,
  })
  const [sentHosts, setSentHosts] = useState<string[]>([])
  // The form opens below the table: bring it into view and put the reader on its heading.
  useEffect(() => {
    heading.current?.scrollIntoView?.({ block: 'start' })
    heading.current?.focus()
  }, [])

  const error = update.error
  const message = (path: string) => {
    const text = fieldError(error, path)
    return text ? messages(text) : null
  }
  const hostTaken = error instanceof ApiError && error.code === 'host_taken'
  const taken = hostTaken ? takenHost(sentHosts, institute.id, institutes) : null
  const hostsError = hostTaken
    ? taken
      ? t('platform.institutes.host_taken_by', { host: taken.host, name: taken.other.name.en })
      : t('platform.institutes.host_taken')
    : message('hosts')
  const headingId = `platform-edit-${institute.id}`

  return (
    <section className="stack platform-create platform-edit" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {t('platform.institutes.edit_title', { name: institute.name.en })}
      </h2>
      <p className="muted">{institute.slug}</p>
      <div aria-live="polite">
        {update.isError && !hostTaken && <Alert kind="error">{t('platform.institutes.edit_failed')}</Alert>}
      </div>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          const fields = instituteFields(draft)
          setSentHosts(fields.hosts)
          update.mutate({ id: institute.id, update: fields }, { onSuccess: (saved) => onDone(saved.name.en) })
        }}
      >
        <InstituteFields draft={draft} onChange={setDraft} message={message} hostsError={hostsError} hostRows={3} />
        <div className="actions">
          <Button type="submit" variant="primary" disabled={update.isPending}>
            {update.isPending ? t('platform.institutes.edit_saving') : t('platform.institutes.edit_save')}
          </Button>
          <Button onClick={() => onDone(null)}>{t('common.cancel', { ns: 'admin' })}</Button>
        </div>
      </form>
    </section>
  )
}
