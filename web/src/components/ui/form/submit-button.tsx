import type { ReactNode } from 'react'

interface SubmitButtonProps {
  /** The form is being sent: the button is disabled, and says `busy` when given. */
  pending: boolean
  busy?: ReactNode
  disabled?: boolean
  children: ReactNode
}

/** A form's primary button, which cannot send the form twice. */
export function SubmitButton({ pending, busy, disabled, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="btn btn--primary" disabled={pending || disabled}>
      {pending && busy ? busy : children}
    </button>
  )
}
