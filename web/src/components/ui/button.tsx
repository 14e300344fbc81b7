import type { ComponentProps } from 'react'

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

export type ButtonProps = ButtonLook & ComponentProps<'button'>

/**
 * The app's button. `type` is "button" unless given: a form's submit button says `type="submit"`. A `ref` is
 * passed on to the <button> like any prop (React 19 hands it to function components).
 */
export function Button({ variant, small, block, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass({ variant, small, block, className })} {...props} />
}
