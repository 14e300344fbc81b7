import { forwardRef, type ButtonHTMLAttributes } from 'react'

/** The looks of styles.css's `.btn`: plain, or one of its colour modifiers. */
export type ButtonVariant = 'plain' | 'primary' | 'success' | 'danger'

export interface ButtonLook {
  variant?: ButtonVariant
  small?: boolean
  /** The full width of its container. */
  block?: boolean
  /** Classes of the place it is used in (`quiz__submit`), after the button's own. */
  className?: string
}

/** The button's class list, also for a link or a label that looks like a button. */
export function buttonClass({ variant = 'plain', small = false, block = false, className }: ButtonLook = {}) {
  let classes = 'btn'
  if (variant !== 'plain') classes += ` btn--${variant}`
  if (small) classes += ' btn--small'
  if (block) classes += ' btn--block'
  return className ? `${classes} ${className}` : classes
}

export type ButtonProps = ButtonLook & ButtonHTMLAttributes<HTMLButtonElement>

/**
 * The app's button. `type` is "button" unless given: a form's submit button says `type="submit"`. A ref reaches
 * the <button> (a dialog's first action takes the focus).
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, small, block, className, type = 'button', ...props },
  ref,
) {
  return <button ref={ref} type={type} className={buttonClass({ variant, small, block, className })} {...props} />
})
