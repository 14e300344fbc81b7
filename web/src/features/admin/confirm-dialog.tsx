import { useTranslation } from 'react-i18next'
import { Dialog } from '../../components/ui/dialog'
import './admin.i18n'
import { Button } from '../../components/ui/button'

interface ConfirmDeleteDialogProps {
  open: boolean
  title: string
  message: string
  /** What is about to go, shown under the question (a quiz title, a question preview). */
  subject?: string
  pending: boolean
  /** The confirming button's words when "Delete" is not what happens (ending a membership), and while it runs. */
  confirmLabel?: string
  pendingLabel?: string
  onConfirm: () => void
  onCancel: () => void
}

/** The app's own dialog in place of window.confirm: translated, styled and reachable by tests and keyboards. */
export function ConfirmDeleteDialog({
  open,
  title,
  message,
  subject,
  pending,
  confirmLabel,
  pendingLabel,
  onConfirm,
  onCancel,
}: ConfirmDeleteDialogProps) {
  const { t } = useTranslation('admin')
  return (
    <Dialog
      open={open}
      title={title}
      onClose={pending ? undefined : onCancel}
      actions={
        <>
          {/* eslint-disable-next-line jsx-a11y/no-autofocus -- a destructive dialog opens on its safe choice (WAI-ARIA APG) */}
          <Button onClick={onCancel} disabled={pending} autoFocus>
            {t('common.cancel')}
          </Button>
          <Button variant="danger" onClick={onConfirm} disabled={pending}>
            {pending ? (pendingLabel ?? t('common.deleting')) : (confirmLabel ?? t('common.delete'))}
          </Button>
        </>
      }
    >
      <p>{message}</p>
      {subject && <p className="admin-confirm__subject">{subject}</p>}
    </Dialog>
  )
}
