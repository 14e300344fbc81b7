import { useEffect, useId, useRef, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

interface DialogProps {
  open: boolean
  title: ReactNode
  /** Called on Escape and on the close button; omit to make the dialog closable only by its own actions. */
  onClose?: () => void
  children: ReactNode
  actions?: ReactNode
  className?: string
  /** The body is read with the title when the dialog opens: a confirmation whose counts decide the answer. */
  described?: boolean
}

/**
 * A modal on the native <dialog>: showModal() makes the rest of the page inert (focus stays inside) and
 * Escape fires `cancel`, which we route to onClose (or ignore when the dialog must not be dismissed).
 */
export function Dialog({ open, title, onClose, children, actions, className, described = false }: DialogProps) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const bodyId = useId()

  useEffect(() => {
    if (!open) return
    // What had focus when the dialog opened: it gets focus back when the dialog goes, else the browser drops focus
    // to the top of the page (a learner reading question after question would start from the top each time).
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal?.()
    return () => {
      if (dialog?.open) dialog.close?.()
      if (opener?.isConnected) opener.focus()
    }
  }, [open])

  if (!open) return null
  return (
    <dialog
      ref={ref}
      className={`dialog ${className ?? ''}`}
      aria-labelledby={titleId}
      aria-describedby={described ? bodyId : undefined}
      onCancel={(event) => {
        event.preventDefault()
        onClose?.()
      }}
    >
      <div className="dialog__header">
        <h2 id={titleId}>{title}</h2>
        {onClose && (
          <button type="button" className="dialog__close" onClick={onClose} aria-label={t('close')}>
            ×
          </button>
        )}
      </div>
      <div className="dialog__body" id={bodyId}>
        {children}
      </div>
      {actions && <div className="dialog__actions">{actions}</div>}
    </dialog>
  )
}
