import { zodResolver } from '@hookform/resolvers/zod'
import { ProfileUpdateFieldsSchema, usersMessages, type Profile } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useRef, useState, type ChangeEvent } from 'react'
import { useForm, type Resolver } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Field } from '../../components/ui/form/field'
import { fieldErrorsOf, setServerErrors } from '../../components/ui/form/server-errors'
import { Loading } from '../../components/ui/loading'
import { setLanguage, type Language } from '../../i18n/i18n'
import { ActiveLogins } from './active-logins'
import { ChangePasswordForm } from './change-password-form'
import { profileQuery, useUpdateProfile } from './profile.api'
import './profile.css'
import { useFilePreview } from './use-file-preview'
import './profile.i18n'
import { Button, buttonClass } from '../../components/ui/button'

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
      <ChangePasswordForm />
      <ActiveLogins />
    </section>
  )
}

type ProfileValues = {
  full_name: string
  email: string
  preferred_language: Language
  sms_reminders: boolean
  show_on_leaderboards: boolean
}
type PictureProblem = 'picture_too_large' | 'picture_invalid'

// The switches are checkboxes (booleans) here and 'true'/'false' in the multipart body: only the text fields are checked.
const textResolver = zodResolver(
  ProfileUpdateFieldsSchema.omit({ sms_reminders: true, show_on_leaderboards: true }),
) as unknown as Resolver<ProfileValues>
const resolver: Resolver<ProfileValues> = async (values, context, options) => {
  const checked = await textResolver(values, context, options)
  return Object.keys(checked.errors).length > 0 ? checked : { values, errors: {} }
}

/** The server's field texts we know, shown in the learner's language; others are shown as sent. */
const knownTexts: Record<string, 'email_invalid'> = { [usersMessages.invalidEmail]: 'email_invalid' }

function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile')
  const form = useForm<ProfileValues>({
    resolver,
    defaultValues: {
      full_name: profile.full_name,
      email: profile.email,
      preferred_language: profile.preferred_language,
      sms_reminders: profile.sms_reminders,
      show_on_leaderboards: profile.show_on_leaderboards,
    },
    reValidateMode: 'onSubmit',
  })
  const { errors } = form.formState
  const [pictureProblem, setPictureProblem] = useState<PictureProblem | null>(null)
  const [outcome, setOutcome] = useState<'saved' | 'failed' | null>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const preview = useFilePreview()
  const update = useUpdateProfile()
  const picture = preview.url ?? profile.profile_picture

  const message = (text: string | undefined) => (text && knownTexts[text] ? t(knownTexts[text]) : text)

  function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null
    setOutcome((current) => (current === 'saved' ? null : current))
    const problem =
      chosen && chosen.size > MAX_PICTURE_BYTES
        ? 'picture_too_large'
        : chosen && !chosen.type.startsWith('image/')
          ? 'picture_invalid'
          : null
    setPictureProblem(problem)
    if (problem) event.target.value = ''
    preview.choose(problem ? null : chosen)
  }

  function save(values: ProfileValues) {
    const body = new FormData()
    body.set('full_name', values.full_name)
    body.set('email', values.email)
    body.set('preferred_language', values.preferred_language)
    body.set('sms_reminders', String(values.sms_reminders))
    body.set('show_on_leaderboards', String(values.show_on_leaderboards))
    if (preview.file) body.set('profile_picture', preview.file)
    const previousLanguage = profile.preferred_language
    update.mutate(body, {
      onSuccess: (updated) => {
        setOutcome('saved')
        preview.choose(null)
        if (fileInput.current) fileInput.current.value = ''
        // WEB.md: saving another preferred language switches the app to it.
        if (updated.preferred_language !== previousLanguage) setLanguage(updated.preferred_language)
      },
      onError: (error) => {
        setOutcome('failed')
        if (error instanceof ApiError && error.status === 413) setPictureProblem('picture_too_large')
        const picture = fieldErrorsOf(error).profile_picture
        if (picture) setPictureProblem('picture_invalid')
        setServerErrors(form.setError, error, { full_name: 'full_name', email: 'email' })
      },
    })
  }

  const pictureError = pictureProblem ? t(pictureProblem) : null
  const pictureDescribedBy = ['profile-picture-name profile-picture-hint', pictureError ? 'profile-picture-error' : '']

  return (
    <form
      className="card profile-form"
      onSubmit={(event) => {
        setOutcome(null)
        setPictureProblem(null)
        // A refusal of the form's own checks reads like the server's: the same alert and the same field messages.
        void form.handleSubmit(save, () => setOutcome('failed'))(event)
      }}
      noValidate
    >
      {outcome === 'saved' && <Alert kind="success">{t('saved')}</Alert>}
      {outcome === 'failed' && <Alert kind="error">{t('save_failed')}</Alert>}

      <div className="profile-picture">
        {picture ? (
          <img
            className="profile-picture__image"
            src={picture}
            alt={preview.url ? t('picture_new_alt') : t('picture_alt')}
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
              aria-invalid={Boolean(pictureError)}
              aria-describedby={pictureDescribedBy.filter(Boolean).join(' ')}
              onChange={chooseFile}
            />
            <label htmlFor="profile-picture" className={buttonClass({ className: 'file-picker__button' })}>
              {t('choose_picture')}
            </label>
            <span id="profile-picture-name" className="file-picker__name">
              {preview.file ? preview.file.name : t('no_file')}
            </span>
          </div>
          <span id="profile-picture-hint" className="field__hint">
            {t('picture_hint')}
          </span>
          {pictureError && (
            <span id="profile-picture-error" className="field__error">
              {pictureError}
            </span>
          )}
        </div>
      </div>

      <Field id="profile-username" label={t('username')}>
        {(control) => <input {...control} value={profile.username} readOnly />}
      </Field>
      <Field id="profile-phone" label={t('phone')}>
        {(control) => <input {...control} type="tel" value={profile.phone_number} readOnly />}
      </Field>
      <Field id="profile-full_name" label={t('full_name')} error={message(errors.full_name?.message)}>
        {(control) => <input {...control} {...form.register('full_name')} autoComplete="name" maxLength={150} />}
      </Field>
      <Field id="profile-email" label={t('email')} error={message(errors.email?.message)}>
        {(control) => (
          <input {...control} {...form.register('email')} type="email" autoComplete="email" maxLength={254} />
        )}
      </Field>
      <Field id="profile-language" label={t('language')}>
        {(control) => (
          <select {...control} {...form.register('preferred_language')}>
            <option value="en">{t('english')}</option>
            <option value="ne">{t('nepali')}</option>
          </select>
        )}
      </Field>
      <fieldset className="profile-switches">
        <legend>{t('live_title')}</legend>
        <div className="checkbox">
          <input id="profile-sms_reminders" type="checkbox" {...form.register('sms_reminders')} />
          <label htmlFor="profile-sms_reminders">{t('sms_reminders')}</label>
        </div>
        <div className="checkbox">
          <input
            id="profile-show_on_leaderboards"
            type="checkbox"
            aria-describedby="profile-show_on_leaderboards-hint"
            {...form.register('show_on_leaderboards')}
          />
          <label htmlFor="profile-show_on_leaderboards">{t('show_on_leaderboards')}</label>
        </div>
        <span id="profile-show_on_leaderboards-hint" className="field__hint">
          {t('show_on_leaderboards_hint')}
        </span>
      </fieldset>
      <Button type="submit" variant="primary" block disabled={update.isPending}>
        {update.isPending ? t('saving') : t('save')}
      </Button>
    </form>
  )
}
