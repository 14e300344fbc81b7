import { useQuery } from '@tanstack/react-query'
import { institutionMessages } from '@quiz/contracts'
import { useState, type FormEvent } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import '../institutions.i18n'
import { Alert } from '../../../components/ui/alert'
import { PagedTable, SubmitButton } from '../ui'
import { Dialog } from '../../../components/ui/dialog'
import { setServerErrors, type ServerFields } from '../../../components/ui/form/server-errors'
import { CheckboxField, TextField } from '../../../components/ui/form/fields'
import { formatDateTime, toDevanagariDigits } from '../../../lib/format'
import { fromDevanagariDigits } from '../../../lib/digits'
import { formatNumber } from '../../../lib/format'
import { peopleQueries, LEARNERS_PAGE_SIZE, useUpdateLearner, type AdminUser } from './people.api'
import { AdminNav } from '../admin-nav'
import { isoToLocalInput, localInputToIso } from '../datetime'
import { learnerResolver, type LearnerValues, AdminForm } from '../forms'
import '../admin.css'
import { Button } from '../../../components/ui/button'

/** /admin/learners: find a learner; give or take paid access (with an optional end) and extra time. */
export function Component() {
  const { t, i18n } = useTranslation('institutions')
  const [draft, setDraft] = useState('')
  const [search, setSearch] = useState('')
  const [page, setPage] = useState(1)
  const [editing, setEditing] = useState<AdminUser | null>(null)
  const [saved, setSaved] = useState<string | null>(null)
  const learners = useQuery({ ...peopleQueries.learners(search, page), placeholderData: (previous) => previous })
  const language = i18n.language
  const n = (value: number) => formatNumber(value, language, { useGrouping: false })

  const submitSearch = (event: FormEvent) => {
    event.preventDefault()
    // A phone number typed on a Nepali keyboard (९८४…) is searched as the digits it is stored with.
    setSearch(fromDevanagariDigits(draft.trim()))
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
        <Button type="submit">{t('learners.search_button')}</Button>
      </form>
      {saved && <Alert kind="success">{t('learners.saved', { username: saved })}</Alert>}

      <PagedTable
        label={t('learners.title')}
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
              <Button
                small
                aria-label={`${t('learners.edit')}: ${user.username}`}
                onClick={() => {
                  setSaved(null)
                  setEditing(user)
                }}
              >
                {t('learners.edit')}
              </Button>
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

// The server's field paths of PATCH /api/admin/users/{id}/ and the fields that show them.
const LEARNER_FIELDS: ServerFields<LearnerValues> = {
  has_paid_access: 'has_paid_access',
  paid_access_until: 'end_date',
  extra_time_percent: 'extra_time_percent',
}

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
  // Checked as typed: the Save button stays off while the extra time is out of range.
  const form = useForm<LearnerValues>({
    resolver: learnerResolver,
    mode: 'onChange',
    defaultValues: {
      has_paid_access: user.has_paid_access,
      end_date: endToDateInput(user.paid_access_until),
      extra_time_percent: String(user.extra_time_percent),
    },
  })
  const paid = useWatch({ control: form.control, name: 'has_paid_access' })
  const extraInvalid = Boolean(form.formState.errors.extra_time_percent)
  const messages = (text: string) => (text === institutionMessages.extraTime ? t('learners.extra_time_invalid') : text)

  const save = (values: LearnerValues) =>
    update.mutate(
      {
        id: user.id,
        patch: {
          has_paid_access: values.has_paid_access,
          // Access lasts to the end of the chosen day in the admin's time zone.
          ...(values.has_paid_access
            ? { paid_access_until: values.end_date ? localInputToIso(`${values.end_date}T23:59:59.999`) : null }
            : {}),
          extra_time_percent: Number(values.extra_time_percent),
        },
      },
      { onSuccess: onSaved, onError: (error) => setServerErrors(form.setError, error, LEARNER_FIELDS) },
    )

  return (
    <Dialog
      open
      title={t('learners.edit_title', { username: user.username })}
      onClose={update.isPending ? undefined : onClose}
    >
      <AdminForm
        form={form}
        messages={messages}
        refusal={update.error}
        className="admin-form"
        onSubmit={form.handleSubmit(save)}
      >
        <CheckboxField<LearnerValues> name="has_paid_access" label={t('learners.grant')} />
        <TextField<LearnerValues>
          name="end_date"
          type="date"
          label={t('learners.end_date')}
          hint={t('learners.end_date_help')}
          disabled={!paid}
        />
        <TextField<LearnerValues>
          name="extra_time_percent"
          type="number"
          label={t('learners.extra_time_label')}
          hint={t('learners.extra_time_help')}
        />
        {update.isError && <Alert kind="error">{t('learners.save_failed')}</Alert>}
        <div className="actions">
          <SubmitButton pending={update.isPending} busy={t('learners.saving')} disabled={extraInvalid}>
            {t('learners.save')}
          </SubmitButton>
          <Button disabled={update.isPending} onClick={onClose}>
            {t('learners.cancel')}
          </Button>
        </div>
      </AdminForm>
    </Dialog>
  )
}
