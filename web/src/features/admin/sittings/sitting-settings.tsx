import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { paths } from '../../../lib/paths'
import { ConfirmDeleteDialog } from '../confirm-dialog'
import { SittingForm } from './sitting-form'
import { useSittingName } from './sitting-title'
import { useDeleteSitting, useUpdateSitting, type Sitting } from './sittings.api'
import './sittings.i18n'

/** Edit the date and title, close or reopen, delete (refused once a sheet is recorded). */
export function SittingSettings({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const name = useSittingName()
  const navigate = useNavigate()
  const update = useUpdateSitting(sitting.quiz_id, sitting.id)
  const remove = useDeleteSitting(sitting.quiz_id, sitting.id)
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [notice, setNotice] = useState<string | null>(null)
  const refused =
    remove.error instanceof ApiError && remove.error.status === 409
      ? t('settings.delete_refused')
      : remove.isError
        ? t('settings.delete_failed')
        : null
  return (
    <section className="card" aria-labelledby="sitting-settings">
      <h2 id="sitting-settings">{t('settings.title')}</h2>
      {notice && <Alert kind="success">{notice}</Alert>}
      {refused && <Alert kind="error">{refused}</Alert>}
      {update.isError && !editing && <Alert kind="error">{t('settings.save_failed')}</Alert>}
      {editing ? (
        <SittingForm
          sitting={sitting}
          pending={update.isPending}
          submitLabel={t('settings.save')}
          onCancel={() => setEditing(false)}
          save={(fields, onError) =>
            update.mutate(
              {
                held_at: fields.held_at,
                ...(fields.title ? { title: fields.title } : {}),
                ...(fields.booklet_pages ? { booklet_pages: fields.booklet_pages } : {}),
              },
              {
                onSuccess: () => {
                  setEditing(false)
                  setNotice(t('settings.saved'))
                },
                onError,
              },
            )
          }
        />
      ) : (
        <div className="actions">
          <Button
            onClick={() => {
              setNotice(null)
              setEditing(true)
            }}
          >
            {t('settings.edit')}
          </Button>
          <Button
            disabled={update.isPending}
            onClick={() =>
              update.mutate(
                { status: sitting.status === 'open' ? 'closed' : 'open' },
                { onSuccess: (changed) => setNotice(t(`settings.now_${changed.status}`)) },
              )
            }
          >
            {sitting.status === 'open' ? t('settings.close') : t('settings.reopen')}
          </Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('settings.delete')}
          </Button>
        </div>
      )}
      <ConfirmDeleteDialog
        open={confirming}
        title={t('settings.delete_title')}
        message={t('settings.delete_message')}
        subject={name(sitting)}
        pending={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          void remove.mutateAsync().then(
            () => navigate(paths.adminQuizSittings(sitting.quiz_id)),
            () => setConfirming(false),
          )
        }
      />
    </section>
  )
}
