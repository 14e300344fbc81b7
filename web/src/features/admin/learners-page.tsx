import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import './institutions.i18n'
import { Alert } from '../../components/ui/alert'
import { PagedTable, SubmitButton } from './ui'
import { Dialog } from '../../components/ui/dialog'
import { Field } from '../../components/ui/form/field'
import { formatDateTime, toDevanagariDigits } from '../../lib/format'
import { formatNumber } from '../../lib/format'
import { institutionQueries, LEARNERS_PAGE_SIZE, useUpdateLearner, type AdminUser } from './admin.api'
import { AdminNav } from './admin-nav'
import { isoToLocalInput, localInputToIso } from './datetime'
import './admin.css'

/** /admin/learners: find a learner; give or take paid access (with an optional end) and extra time. */
export function Component() {
  const { t, i18n } = useTranslation('institutions')
  const [draft, setDraft] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [editing, setEditing] = useState<AdminUser | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const learners = useQuery({ ...institutionQueries.learners(search, page), placeholderData: (previous) => previous })
  const language = i18n.language
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })

  const submitSearch = (event: FormEvent) => {
    event.preventDefault()
    setSearch(draft.trim())
    setPage(1)
  }

  const access = (user: AdminUser) =>
    !user.has_paid_access
      ? t('learners.access_none')
      : user.paid_access_until
        ? t('learners.access_until', { date: formatDateTime(user.paid_access_until, language) })
        : t('learners.access_no_end')

  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('learners.title')}</h1>
      <form className="admin-toolbar" role="search" onSubmit={submitSearch}>
        <div className="field admin-search">
          <label htmlFor="learner-search">{t('learners.search')}</label>
          <input id="learner-search" type="search" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </div>
        <button type="submit" className="btn">
          {t('learners.search_button')}
        </button>
      </form>
      {saved && <Alert kind="success">{t('learners.saved', { username: saved })}</Alert>}

      <PagedTable
        query={learners}
        pageSize={LEARNERS_PAGE_SIZE}
        page={page}
        onPage={setPage}
        text={(key, values) => t(`learners.${key}`, values)}
        className="learners-table"
        columns={[
          { label: t('learners.username') },
          { label: t('learners.name') },
          { label: t('learners.phone') },
          { label: t('learners.joined') },
          { label: t('learners.finished'), numeric: true },
          { label: t('learners.paid_access') },
          { label: t('learners.extra_time'), numeric: true },
          { label: <span className="visually-hidden">{t('learners.edit')}</span> },
        ]}
      >
        {(user) => (
          <tr key={user.id}>
            <td>
              {user.username}
              {user.is_admin && <span className="badge admin-badge">{t('learners.admin_badge')}</span>}
            </td>
            <td>{user.full_name}</td>
            <td>{language === 'ne' ? toDevanagariDigits(user.phone_number) : user.phone_number}</td>
            <td>{formatDateTime(user.date_joined, language)}</td>
            <td className="admin-num">{n(user.finished_attempts)}</td>
            <td>{access(user)}</td>
            <td className="admin-num">{t('learners.extra_time_value', { percent: n(user.extra_time_percent) })}</td>
            <td>
              <button
                type="button"
                className="btn btn--small"
                aria-label={`${t('learners.edit')}: ${user.username}`}
                onClick={() => {
                  setSaved(null)
                  setEditing(user)
                }}
              >
                {t('learners.edit')}
              </button>
            </td>
          </tr>
        )}
      </PagedTable>
      {editing && (
        <LearnerDialog
          key={editing.id}
          user={editing}
          onClose={() => setEditing(null)}
          onSaved={(user) => {
            setEditing(null)
            setSaved(user.username)
          }}
        />
      )}
    </div>
  )
}

/** A date input's value for an ISO end, in the browser's time zone. */
const endToDateInput = (iso: string | null) => (iso ? isoToLocalInput(iso).slice(0, 10) : '')

function LearnerDialog({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser
  onClose: () => void
  onSaved: (user: AdminUser) => void
}) {
  const { t } = useTranslation('institutions')
  const update = useUpdateLearner()
  const [paid, setPaid] = useState(user.has_paid_access)
  const [endDate, setEndDate] = useState(endToDateInput(user.paid_access_until))
  const [extra, setExtra] = useState(String(user.extra_time_percent))
  const extraValue = /^\d{1,3}$/.test(extra.trim()) ? Number(extra.trim()) : null
  const extraValid = extraValue !== null && extraValue <= 300

  const save = (event: FormEvent) => {
    event.preventDefault()
    if (!extraValid) return
    update.mutate(
      {
        id: user.id,
        patch: {
          has_paid_access: paid,
          // Access lasts to the end of the chosen day in the admin's time zone.
          ...(paid ? { paid_access_until: endDate ? localInputToIso(`${endDate}T23:59:59.999`) : null } : {}),
          extra_time_percent: extraValue,
        },
      },
      { onSuccess: onSaved },
    )
  }

  return (
    <Dialog
      open
      title={t('learners.edit_title', { username: user.username })}
      onClose={update.isPending ? undefined : onClose}
    >
      <form className="admin-form" onSubmit={save} noValidate>
        <label className="checkbox">
          <input type="checkbox" checked={paid} onChange={(event) => setPaid(event.target.checked)} />
          {t('learners.grant')}
        </label>
        <Field label={t('learners.end_date')} hint={t('learners.end_date_help')}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={endDate}
              disabled={!paid}
              onChange={(event) => setEndDate(event.target.value)}
            />
          )}
        </Field>
        <Field
          label={t('learners.extra_time_label')}
          hint={t('learners.extra_time_help')}
          error={extraValid ? null : t('learners.extra_time_invalid')}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={0}
              max={300}
              step={1}
              value={extra}
              onChange={(event) => setExtra(event.target.value)}
            />
          )}
        </Field>
        {update.isError && <Alert kind="error">{t('learners.save_failed')}</Alert>}
        <div className="actions">
          <SubmitButton pending={update.isPending} busy={t('learners.saving')} disabled={!extraValid}>
            {t('learners.save')}
          </SubmitButton>
          <button type="button" className="btn" disabled={update.isPending} onClick={onClose}>
            {t('learners.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
