import type { InstituteSettings, InstituteSettingsUpdate } from '@quiz/contracts'
import { brandPalette, isBrandColour } from '@quiz/contracts/rules/brand-colours'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm, useFormState, useWatch, type Control } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { api } from '../../../api/client'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { CheckboxField, TextField } from '../../../components/ui/form/fields'
import { setServerErrors, type ServerFields } from '../../../components/ui/form/server-errors'
import { refreshInstitute } from '../../../lib/institute'
import { readAsDataUrl } from '../../../lib/data-url'
import { AdminNav } from '../admin-nav'
import { AdminForm, BilingualFields, pairFields, sendAsTyped, useAdminMessages } from '../forms'
import { SubmitButton } from '../ui'
import '../admin.css'
import './institute.css'
import '../../../i18n/institute.i18n'

// WEB.md "Institutes": the institute's name, logo and colour (with a live preview of the header), SMS sender, open
// registration, and the Khalti and eSewa keys, whose secrets are written once and read back only as "set".

const settingsKey = ['admin', 'institute-settings'] as const
const settingsQuery = queryOptions({
  queryKey: settingsKey,
  queryFn: () => api.get<InstituteSettings>('/admin/institute/settings/'),
})

interface Keys {
  /** The public half as stored; empty removes it. */
  public: string
  /** Typed only to replace the stored secret: empty keeps it. */
  secret: string
  remove: boolean
}

interface SettingsValues {
  name: { en: string; ne: string }
  colour: string
  sms_sender: string
  open_registration: boolean
  khalti: Keys
  esewa: Keys
}

/** A logo chosen now (a data: URL), removed, or as stored. */
type LogoChange = { picture: string } | null | undefined

const SETTINGS_FIELDS: ServerFields<SettingsValues> = {
  ...pairFields('name'),
  colour: 'colour',
  sms_sender: 'sms_sender',
  open_registration: 'open_registration',
  'khalti.public_key': 'khalti.public',
  'khalti.secret_key': 'khalti.secret',
  'esewa.merchant_code': 'esewa.public',
  'esewa.secret_key': 'esewa.secret',
  logo: 'root.logo',
}

/** A provider's part of the request: left out when nothing changed, so the stored keys stay. */
function keysUpdate(keys: Keys, stored: string | null, publicName: 'public_key' | 'merchant_code') {
  if (keys.remove) return null
  const update: Record<string, string | null> = {}
  if (keys.public.trim() !== (stored ?? '')) update[publicName] = keys.public.trim() || null
  if (keys.secret.trim()) update.secret_key = keys.secret
  return Object.keys(update).length > 0 ? update : undefined
}

function toUpdate(values: SettingsValues, stored: InstituteSettings, logo: LogoChange): InstituteSettingsUpdate {
  return {
    name: values.name,
    colour: values.colour,
    sms_sender: values.sms_sender.trim() || null,
    open_registration: values.open_registration,
    ...(logo !== undefined && { logo }),
    khalti: keysUpdate(values.khalti, stored.khalti?.public_key ?? null, 'public_key'),
    esewa: keysUpdate(values.esewa, stored.esewa?.merchant_code ?? null, 'merchant_code'),
  } as InstituteSettingsUpdate
}

export function Component() {
  const { t } = useTranslation('institute')
  const settings = useQuery(settingsQuery)
  // Here, not in the form: a save gives the form the stored settings anew (a remount), and the notice stays.
  const [saved, setSaved] = useState(false)
  return (
    <div className="admin">
      <AdminNav />
      <h1>{t('settings.title')}</h1>
      {settings.isPending && <p role="status">{t('settings.loading')}</p>}
      {settings.isError && <Alert kind="error">{t('settings.load_failed')}</Alert>}
      {saved && <Alert kind="success">{t('settings.saved')}</Alert>}
      {settings.data && (
        <SettingsForm
          key={JSON.stringify(settings.data)}
          stored={settings.data}
          onSaving={() => setSaved(false)}
          onSaved={() => setSaved(true)}
        />
      )}
    </div>
  )
}

function SettingsForm({
  stored,
  onSaving,
  onSaved,
}: {
  stored: InstituteSettings
  onSaving: () => void
  onSaved: () => void
}) {
  const { t } = useTranslation('institute')
  const queryClient = useQueryClient()
  const messages = useAdminMessages()
  const [logo, setLogo] = useState<LogoChange>(undefined)
  const [refusal, setRefusal] = useState<object | null>(null)
  const form = useForm<SettingsValues>({
    resolver: sendAsTyped(),
    defaultValues: {
      name: stored.name,
      colour: stored.colour,
      sms_sender: stored.sms_sender ?? '',
      open_registration: stored.open_registration,
      khalti: { public: stored.khalti?.public_key ?? '', secret: '', remove: false },
      esewa: { public: stored.esewa?.merchant_code ?? '', secret: '', remove: false },
    },
  })
  const save = useMutation({
    mutationFn: (update: InstituteSettingsUpdate) => api.put<InstituteSettings>('/admin/institute/settings/', update),
    onSuccess: async (fresh) => {
      onSaved()
      // The header repaints in the new name and colour at once (lib/institute.ts).
      await refreshInstitute()
      queryClient.setQueryData(settingsKey, fresh)
    },
    onError: (error) => {
      setServerErrors(form.setError, error, SETTINGS_FIELDS)
      setRefusal({})
    },
  })

  return (
    <AdminForm
      form={form}
      messages={messages}
      refusal={refusal}
      className="stack institute-settings"
      onSubmit={form.handleSubmit((values) => {
        onSaving()
        save.mutate(toUpdate(values, stored, logo))
      })}
    >
      {save.isError && <Alert kind="error">{t('settings.save_failed')}</Alert>}
      <BilingualFields labels={{ en: t('settings.name_en'), ne: t('settings.name_ne') }} name="name" />
      <LogoField stored={stored.logo} change={logo} onChange={setLogo} error={form.formState.errors.root?.logo} />
      <ColourField control={form.control} register={form.register} />
      <TextField<SettingsValues>
        name="sms_sender"
        label={t('settings.sms_sender')}
        hint={t('settings.sms_sender_hint')}
      />
      <CheckboxField<SettingsValues>
        name="open_registration"
        label={t('settings.open_registration')}
        hint={t('settings.open_registration_hint')}
      />
      <KeysFieldset provider="khalti" publicLabel={t('settings.public_key')} stored={stored.khalti} />
      <KeysFieldset provider="esewa" publicLabel={t('settings.merchant_code')} stored={stored.esewa} />
      <div className="actions">
        <SubmitButton pending={save.isPending}>{t('settings.save')}</SubmitButton>
      </div>
    </AdminForm>
  )
}

function LogoField({
  stored,
  change,
  onChange,
  error,
}: {
  stored: InstituteSettings['logo']
  change: LogoChange
  onChange: (change: LogoChange) => void
  error?: { message?: string }
}) {
  const { t } = useTranslation('institute')
  const messages = useAdminMessages()
  const shown = change === undefined ? stored?.url : change?.picture
  return (
    <Field
      label={t('settings.logo_choose')}
      hint={t('settings.logo_hint')}
      error={error?.message ? messages(error.message) : null}
    >
      {(control) => (
        <div className="institute-logo">
          {shown ? <img src={shown} alt={t('settings.logo')} /> : <span>{t('settings.logo_none')}</span>}
          <input
            {...control}
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={async (event) => {
              const file = event.target.files?.[0]
              if (file) onChange({ picture: await readAsDataUrl(file) })
            }}
          />
          {shown && (
            <Button type="button" onClick={() => onChange(null)}>
              {t('settings.logo_remove')}
            </Button>
          )}
        </div>
      )}
    </Field>
  )
}

function ColourField({
  control,
  register,
}: {
  control: Control<SettingsValues>
  register: ReturnType<typeof useForm<SettingsValues>>['register']
}) {
  const { t } = useTranslation('institute')
  const messages = useAdminMessages()
  const [colour, name] = useWatch({ control, name: ['colour', 'name.en'] })
  const { errors } = useFormState({ control, name: 'colour' })
  const palette = brandPalette(isBrandColour(colour) ? colour : '#1f6feb')
  return (
    <>
      <Field
        label={t('settings.colour')}
        hint={t('settings.colour_hint')}
        error={errors.colour?.message ? messages(errors.colour.message) : null}
      >
        {(props) => (
          <div className="institute-colour">
            <input {...props} type="color" {...register('colour')} />
            <code>{colour}</code>
          </div>
        )}
      </Field>
      <figure className="institute-preview">
        <figcaption>{t('settings.preview')}</figcaption>
        <div className="institute-preview__header" style={{ background: palette.header, color: palette.header_text }}>
          {name}
        </div>
        <span className="institute-preview__button" style={{ background: palette.primary }}>
          {t('settings.preview_button')}
        </span>
      </figure>
    </>
  )
}

function KeysFieldset({
  provider,
  publicLabel,
  stored,
}: {
  provider: 'khalti' | 'esewa'
  publicLabel: string
  stored: InstituteSettings['khalti'] | InstituteSettings['esewa']
}) {
  const { t } = useTranslation('institute')
  const providerName = t(`settings.${provider}`)
  return (
    <fieldset className="institute-keys">
      <legend>{providerName}</legend>
      <TextField<SettingsValues> name={`${provider}.public`} label={publicLabel} />
      <TextField<SettingsValues>
        name={`${provider}.secret`}
        label={t('settings.secret_key')}
        hint={stored?.secret_key === 'set' ? t('settings.secret_set') : t('settings.secret_unset')}
      />
      {stored && (
        <CheckboxField<SettingsValues>
          name={`${provider}.remove`}
          label={t('settings.remove_keys', { provider: providerName })}
        />
      )}
    </fieldset>
  )
}
