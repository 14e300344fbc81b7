import { zodResolver } from '@hookform/resolvers/zod'
import { ProfileUpdateFieldsSchema, usersMessages, type Profile } from '@quiz/contracts'
import { useRef, useState, type ChangeEvent } from 'react'
import { useForm, useWatch, type Control, type Resolver, type UseFormRegister } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../api/api-error'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { Field } from '../../components/ui/form/field'
import { fieldErrorsOf, setServerErrors } from '../../components/ui/form/server-errors'
import { setLanguage, type Language } from '../../i18n/i18n'
import { ProfilePicture } from './profile-picture'
import { useUpdateProfile } from './profile.api'
import { useFilePreview } from './use-file-preview'
import './profile.i18n'

/** API.md: pictures up to 5 MB; larger ones are refused with 413, so say so before uploading. */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024

type ProfileValues = {
  full_name: string
  email: string
  preferred_language: Language
  sms_reminders: boolean
  show_on_leaderboards: boolean
  screen_reader: boolean
  /** Off, or "HH:MM" Nepal time (API.md "A daily set and a streak"). */
  daily_reminder_on: boolean
  daily_reminder: string
}
type PictureProblem = 'picture_too_large' | 'picture_invalid'

// The switches are checkboxes (booleans) here and 'true'/'false' in the multipart body: only the text fields are checked.
const textResolver = zodResolver(
  ProfileUpdateFieldsSchema.omit({ sms_reminders: true, show_on_leaderboards: true, screen_reader: true }),
) as unknown as Resolver<ProfileValues>
const resolver: Resolver<ProfileValues> = async (values, context, options) => {
  // The reminder's time is checked only when the reminder is on: off sends an empty value.
  const checked = await textResolver(
    { ...values, daily_reminder: values.daily_reminder_on ? values.daily_reminder : '' },
    context,
    options,
  )
  return Object.keys(checked.errors).length > 0 ? checked : { values, errors: {} }
}

/** The time shown when a learner turns the reminder on: early, before the day's work (WEB.md's bus at 6 a.m.). */
const DEFAULT_REMINDER = '06:00'

/** The server's field texts we know, shown in the learner's language; others are shown as sent. */
const knownTexts: Record<string, 'email_invalid' | 'daily_reminder_invalid'> = {
  [usersMessages.invalidEmail]: 'email_invalid',
  'Send a time as HH:MM, or nothing for no reminder.': 'daily_reminder_invalid',
}

/** The learner's own details, picture and settings, saved together as one multipart request. */
export function ProfileForm({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile')
  const form = useForm<ProfileValues>({
    resolver,
    defaultValues: {
      full_name: profile.full_name,
      email: profile.email,
      preferred_language: profile.preferred_language,
      sms_reminders: profile.sms_reminders,
      show_on_leaderboards: profile.show_on_leaderboards,
      screen_reader: profile.screen_reader,
      daily_reminder_on: profile.daily_reminder !== null,
      daily_reminder: profile.daily_reminder ?? DEFAULT_REMINDER,
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
    body.set('screen_reader', String(values.screen_reader))
    body.set('daily_reminder', values.daily_reminder_on ? values.daily_reminder : '')
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
        setServerErrors(form.setError, error, {
          full_name: 'full_name',
          email: 'email',
          daily_reminder: 'daily_reminder',
        })
      },
    })
  }

  const pictureError = pictureProblem ? t(pictureProblem) : null

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

      <ProfilePicture
        picture={picture}
        isNew={preview.url !== null}
        username={profile.username}
        fileName={preview.file?.name ?? null}
        error={pictureError}
        inputRef={fileInput}
        onChange={chooseFile}
      />

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
      <ProfileSwitches register={form.register} />
      <DailyReminder register={form.register} control={form.control} error={message(errors.daily_reminder?.message)} />
      <Button type="submit" variant="primary" block disabled={update.isPending}>
        {update.isPending ? t('saving') : t('save')}
      </Button>
    </form>
  )
}

/** The live quiz settings: SMS reminders, and whether the learner's name shows on the leaderboards. */
function ProfileSwitches({ register }: { register: UseFormRegister<ProfileValues> }) {
  const { t } = useTranslation('profile')
  return (
    <fieldset className="profile-switches">
      <legend>{t('live_title')}</legend>
      <div className="checkbox">
        <input id="profile-sms_reminders" type="checkbox" {...register('sms_reminders')} />
        <label htmlFor="profile-sms_reminders">{t('sms_reminders')}</label>
      </div>
      <div className="checkbox">
        <input
          id="profile-show_on_leaderboards"
          type="checkbox"
          aria-describedby="profile-show_on_leaderboards-hint"
          {...register('show_on_leaderboards')}
        />
        <label htmlFor="profile-show_on_leaderboards">{t('show_on_leaderboards')}</label>
      </div>
      <span id="profile-show_on_leaderboards-hint" className="field__hint">
        {t('show_on_leaderboards_hint')}
      </span>
      <div className="checkbox">
        <input
          id="profile-screen_reader"
          type="checkbox"
          aria-describedby="profile-screen_reader-hint"
          {...register('screen_reader')}
        />
        <label htmlFor="profile-screen_reader">{t('screen_reader')}</label>
      </div>
      <span id="profile-screen_reader-hint" className="field__hint">
        {t('screen_reader_hint')}
      </span>
    </fieldset>
  )
}

/** "Remind me each day at" a time, or off (WEB.md "The daily set"): a push when the day's set is not yet done. */
function DailyReminder({
  register,
  control,
  error,
}: {
  register: UseFormRegister<ProfileValues>
  control: Control<ProfileValues>
  error: string | undefined
}) {
  const { t } = useTranslation('profile')
  const on = useWatch({ control, name: 'daily_reminder_on' })
  return (
    <fieldset className="profile-switches">
      <legend>{t('daily_title')}</legend>
      <div className="checkbox">
        <input id="profile-daily_reminder_on" type="checkbox" {...register('daily_reminder_on')} />
        <label htmlFor="profile-daily_reminder_on">{t('daily_reminder_on')}</label>
      </div>
      {on && (
        <Field id="profile-daily_reminder" label={t('daily_reminder')} hint={t('daily_reminder_hint')} error={error}>
          {(control) => <input {...control} type="time" {...register('daily_reminder')} />}
        </Field>
      )}
    </fieldset>
  )
}
