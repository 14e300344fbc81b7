import type { ChangeEvent, Ref } from 'react'
import { useTranslation } from 'react-i18next'
import { buttonClass } from '../../components/ui/button'
import './profile.i18n'

interface ProfilePictureProps {
  /** The chosen file's preview, or the saved picture; null shows the username's initial. */
  picture: string | null
  /** Whether `picture` is a chosen file not yet saved. */
  isNew: boolean
  username: string
  fileName: string | null
  error: string | null
  inputRef: Ref<HTMLInputElement>
  onChange: (event: ChangeEvent<HTMLInputElement>) => void
}

export function ProfilePicture({ picture, isNew, username, fileName, error, inputRef, onChange }: ProfilePictureProps) {
  const { t } = useTranslation('profile')
  const describedBy = ['profile-picture-name profile-picture-hint', error ? 'profile-picture-error' : '']
  return (
    <div className="profile-picture">
      {picture ? (
        <img
          className="profile-picture__image"
          src={picture}
          alt={isNew ? t('picture_new_alt') : t('picture_alt')}
          width={112}
          height={112}
        />
      ) : (
        <div className="profile-picture__placeholder" role="img" aria-label={t('no_picture')}>
          <span aria-hidden="true">{username.charAt(0).toUpperCase()}</span>
        </div>
      )}
      <div className="field profile-picture__field">
        <span className="label">{t('picture')}</span>
        {/* The native control would say "Choose File / No file chosen" in the browser's language, not the app's. */}
        <div className="file-picker">
          <input
            ref={inputRef}
            id="profile-picture"
            className="file-picker__input"
            name="profile_picture"
            type="file"
            accept="image/*"
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy.filter(Boolean).join(' ')}
            onChange={onChange}
          />
          <label htmlFor="profile-picture" className={buttonClass({ className: 'file-picker__button' })}>
            {t('choose_picture')}
          </label>
          <span id="profile-picture-name" className="file-picker__name">
            {fileName ?? t('no_file')}
          </span>
        </div>
        <span id="profile-picture-hint" className="field__hint">
          {t('picture_hint')}
        </span>
        {error && (
          <span id="profile-picture-error" className="field__error">
            {error}
          </span>
        )}
      </div>
    </div>
  )
}
