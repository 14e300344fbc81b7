import type { Profile } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { setLanguage, type Language } from '../../i18n/i18n'
import { profileQuery, useUpdateProfile } from './profile.api'
import './profile.css'
import { useObjectUrl } from './use-object-url'
import './profile.i18n'

/** API.md: pictures up to 5 MB; larger ones are refused with 413, so say so before uploading. */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024

export function Component() {
  const { t } = useTranslation('profile')
  const profile = useQuery(profileQuery())
  return (
    <section className="profile-page" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('title')}</h1>
      {profile.isPending ? (
        <Loading label={t('loading')} />
      ) : profile.isError ? (
        <Alert kind="error">{t('load_failed')}</Alert>
      ) : (
        <ProfileForm profile={profile.data} />
      )}
    </section>
  )
}

type ProfileField = 'full_name' | 'email' | 'profile_picture'
type MessageKey = 'email_invalid' | 'picture_too_large' | 'picture_invalid'
type FieldMessage = { key: MessageKey } | { text: string }

/** The server's field texts we know, shown in the learner's language; others are shown as sent. */
function serverMessage(field: string, text: string): FieldMessage {
  if (field === 'email' && text === 'Enter a valid email address.') return { key: 'email_invalid' }
  if (field === 'profile_picture') return { key: 'picture_invalid' }
  return { text }
}

function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile')
  const [fullName, setFullName] = useState(profile.full_name)
  const [email, setEmail] = useState(profile.email)
  const [language, setLanguageChoice] = useState<Language>(profile.preferred_language)
  const [file, setFile] = useState<File | null>(null)
  const [errors, setErrors] = useState<Partial<Record<ProfileField, FieldMessage>>>({})
  const [saved, setSaved] = useState(false)
  const fileInput = useRef<HTMLInputElement>(null)
  const preview = useObjectUrl(file)
  const update = useUpdateProfile()
  const picture = preview ?? profile.profile_picture

  const message = (value: FieldMessage | undefined) => (!value ? '' : 'key' in value ? t(value.key) : value.text)

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null
    setSaved(false)
    if (chosen && chosen.size > MAX_PICTURE_BYTES) {
      setErrors((current) => ({ ...current, profile_picture: { key: 'picture_too_large' } }))
      event.target.value = ''
      setFile(null)
      return
    }
    if (chosen && !chosen.type.startsWith('image/')) {
      setErrors((current) => ({ ...current, profile_picture: { key: 'picture_invalid' } }))
      event.target.value = ''
      setFile(null)
      return
    }
    setErrors((current) => ({ ...current, profile_picture: undefined }))
    setFile(chosen)
  }

  function submit(event: FormEvent) {
    event.preventDefault()
    setSaved(false)
    setErrors({})
    const form = new FormData()
    form.set('full_name', fullName)
    form.set('email', email)
    form.set('preferred_language', language)
    if (file) form.set('profile_picture', file)
    const previousLanguage = profile.preferred_language
    update.mutate(form, {
      onSuccess: (updated) => {
        setSaved(true)
        setFile(null)
        if (fileInput.current) fileInput.current.value = ''
        // WEB.md: saving another preferred language switches the app to it.
        if (updated.preferred_language !== previousLanguage) setLanguage(updated.preferred_language)
      },
      onError: (error) => {
        const found: Partial<Record<ProfileField, FieldMessage>> = {}
        if (error instanceof ApiError) {
          if (error.status === 413) found.profile_picture = { key: 'picture_too_large' }
          for (const [field, texts] of Object.entries(error.errors ?? {})) {
            if ((field === 'full_name' || field === 'email' || field === 'profile_picture') && texts[0]) {
              found[field] = serverMessage(field, texts[0])
            }
          }
        }
        setErrors(found)
      },
    })
  }

  const described = (field: ProfileField, hintId?: string) =>
    [hintId, errors[field] ? `profile-${field}-error` : ''].filter(Boolean).join(' ') || undefined

  return (
    <form className="card profile-form" onSubmit={submit} noValidate>
      {saved && <Alert kind="success">{t('saved')}</Alert>}
      {update.isError && <Alert kind="error">{t('save_failed')}</Alert>}

      <div className="profile-picture">
        {picture ? (
          <img
            className="profile-picture__image"
            src={picture}
            alt={preview ? t('picture_new_alt') : t('picture_alt')}
            width={112}
            height={112}
          />
        ) : (
          <div className="profile-picture__placeholder" role="img" aria-label={t('no_picture')}>
            <span aria-hidden="true">{profile.username.charAt(0).toUpperCase()}</span>
          </div>
        )}
        <div className="field profile-picture__field">
          <span className="label">{t('picture')}</span>
          {/* The native control would say "Choose File / No file chosen" in the browser's language, not the app's. */}
          <div className="file-picker">
            <input
              ref={fileInput}
              id="profile-picture"
              className="file-picker__input"
              name="profile_picture"
              type="file"
              accept="image/*"
              aria-invalid={Boolean(errors.profile_picture)}
              aria-describedby={described('profile_picture', 'profile-picture-name profile-picture-hint')}
              onChange={chooseFile}
            />
            <label htmlFor="profile-picture" className="btn file-picker__button">
              {t('choose_picture')}
            </label>
            <span id="profile-picture-name" className="file-picker__name">
              {file ? file.name : t('no_file')}
            </span>
          </div>
          <span id="profile-picture-hint" className="field__hint">
            {t('picture_hint')}
          </span>
          {errors.profile_picture && (
            <span id="profile-profile_picture-error" className="field__error">
              {message(errors.profile_picture)}
            </span>
          )}
        </div>
      </div>

      <div className="field">
        <label htmlFor="profile-username">{t('username')}</label>
        <input id="profile-username" value={profile.username} readOnly />
      </div>
      <div className="field">
        <label htmlFor="profile-phone">{t('phone')}</label>
        <input id="profile-phone" type="tel" value={profile.phone_number} readOnly />
      </div>
      <div className="field">
        <label htmlFor="profile-full_name">{t('full_name')}</label>
        <input
          id="profile-full_name"
          name="full_name"
          autoComplete="name"
          value={fullName}
          maxLength={150}
          aria-invalid={Boolean(errors.full_name)}
          aria-describedby={described('full_name')}
          onChange={(event) => setFullName(event.target.value)}
        />
        {errors.full_name && (
          <span id="profile-full_name-error" className="field__error">
            {message(errors.full_name)}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="profile-email">{t('email')}</label>
        <input
          id="profile-email"
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          maxLength={254}
          aria-invalid={Boolean(errors.email)}
          aria-describedby={described('email')}
          onChange={(event) => setEmail(event.target.value)}
        />
        {errors.email && (
          <span id="profile-email-error" className="field__error">
            {message(errors.email)}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="profile-language">{t('language')}</label>
        <select
          id="profile-language"
          name="preferred_language"
          value={language}
          onChange={(event) => setLanguageChoice(event.target.value === 'ne' ? 'ne' : 'en')}
        >
          <option value="en">{t('english')}</option>
          <option value="ne">{t('nepali')}</option>
        </select>
      </div>
      <button type="submit" className="btn btn--primary btn--block" disabled={update.isPending}>
        {update.isPending ? t('saving') : t('save')}
      </button>
    </form>
  )
}
