import { useState, type ComponentProps } from 'react'
import { useTranslation } from 'react-i18next'
import './password-input.css'

type PasswordInputProps = Omit<ComponentProps<'input'>, 'type' | 'id'> & { id: string }

/**
 * A password field with a show/hide toggle (SPEC.md: every password field has one). The caller renders the
 * <label htmlFor={id}>. The toggle is a pressed/not-pressed button with one fixed name, the pattern screen
 * readers announce best ("Show password, toggle button, pressed").
 */
export function PasswordInput({ id, className, ...inputProps }: PasswordInputProps) {
  const { t } = useTranslation('auth')
  const [visible, setVisible] = useState(false)
  return (
    <div className={`password-input ${className ?? ''}`}>
      <input
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        {...inputProps}
        id={id}
        type={visible ? 'text' : 'password'}
      />
      <button
        type="button"
        className="password-input__toggle"
        aria-controls={id}
        aria-pressed={visible}
        aria-label={t('password_input.show')}
        title={t('password_input.show')}
        onClick={() => setVisible((value) => !value)}
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <path
            d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12Z"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
          <circle cx="12" cy="12" r="3" fill="none" stroke="currentColor" strokeWidth="2" />
          {visible && <path d="M4 4l16 16" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />}
        </svg>
      </button>
    </div>
  )
}
