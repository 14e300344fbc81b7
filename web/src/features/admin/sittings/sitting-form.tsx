import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { SelectField, TextField } from '../../../components/ui/form/fields'
import { setServerErrors, type ServerFields } from '../../../components/ui/form/server-errors'
import { isoToLocalInput, localInputToIso } from '../datetime'
import { AdminForm, BilingualFields, pairFields, sendAsTyped, useAdminMessages } from '../forms'
import { SubmitButton } from '../ui'
import { scriptLang, useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { DEFAULT_BOOKLET_PAGES, type Sitting } from './sittings.api'
import './sittings.i18n'

export interface SittingValues {
  held_at: string
  title: { en: string; ne: string }
  sets: string
  option_labels: 'latin' | 'devanagari'
  booklet_pages: string
}

/** What the form sends: a new sitting's fields, or a sitting's changes (its sets and letters are printed already). */
export interface SittingFields {
  held_at: string
  title?: { en: string; ne: string }
  sets?: number
  option_labels?: 'latin' | 'devanagari'
  /** Written-answer booklet pages a learner (printed only when the paper has written questions). */
  booklet_pages?: number
}

/** Pages a learner a booklet may have (contracts' bookletLimits.pages, not imported: it is a value of the barrel). */
const BOOKLET_PAGE_CHOICES = Array.from({ length: 16 }, (_, index) => String(index + 1))

const FIELDS: ServerFields<SittingValues> = {
  held_at: 'held_at',
  ...pairFields('title'),
  sets: 'sets',
  option_labels: 'option_labels',
  booklet_pages: 'booklet_pages',
}

interface SittingFormProps {
  /** The sitting being edited; a new one when absent. */
  sitting?: Sitting
  pending: boolean
  submitLabel: string
  save: (fields: SittingFields, onError: (error: unknown) => void) => void
  onCancel?: () => void
}

/** A sitting's date and time and title; for a new one its sets and option letters too. */
export function SittingForm({ sitting, pending, submitLabel, save, onCancel }: SittingFormProps) {
  const { t, i18n } = useTranslation('sittings')
  const messages = useAdminMessages()
  const language = useLanguage()
  const [refusal, setRefusal] = useState<object | null>(null)
  const [refusedWhole, setRefusedWhole] = useState<string | null>(null)
  const form = useForm<SittingValues>({
    resolver: sendAsTyped(),
    defaultValues: {
      held_at: isoToLocalInput(sitting?.held_at),
      title: { en: sitting?.title.en ?? '', ne: sitting?.title.ne ?? '' },
      sets: String(sitting?.sets.length ?? 1),
      option_labels: sitting?.option_labels ?? 'latin',
      booklet_pages: String(sitting?.booklet_pages ?? DEFAULT_BOOKLET_PAGES),
    },
  })

  const submit = (values: SittingValues) => {
    setRefusedWhole(null)
    const heldAt = localInputToIso(values.held_at)
    if (heldAt === null) {
      form.setError('held_at', { message: t('form.held_at_required') })
      setRefusal({})
      return
    }
    const title = values.title.en.trim() || values.title.ne.trim() ? values.title : undefined
    const booklet_pages = Number(values.booklet_pages)
    const fields: SittingFields = sitting
      ? { held_at: heldAt, ...(title ? { title } : {}), booklet_pages }
      : { held_at: heldAt, title, sets: Number(values.sets), option_labels: values.option_labels, booklet_pages }
    save(fields, (error) => {
      setServerErrors(form.setError, error, FIELDS)
      // A paper that cannot be printed (too many options or questions) is a refusal of the whole sitting.
      if (error instanceof ApiError && !error.errors) setRefusedWhole(error.detail)
      setRefusal({})
    })
  }

  return (
    <AdminForm
      form={form}
      messages={messages}
      refusal={refusal}
      className="stack"
      onSubmit={form.handleSubmit(submit, () => setRefusal({}))}
    >
      {refusedWhole && <Alert kind="error">{refusedWhole}</Alert>}
      <TextField<SittingValues> name="held_at" type="datetime-local" label={t('form.held_at')} required />
      <BilingualFields labels={{ en: t('form.title_en'), ne: t('form.title_ne') }} name="title" />
      {!sitting && (
        <div className="sittings-form__row">
          <SelectField<SittingValues>
            name="sets"
            label={t('form.sets')}
            hint={t('form.sets_hint')}
            options={(['1', '2', '3', '4'] as const).map((value) => ({ value, label: t(`form.sets_${value}`) }))}
          />
          <SelectField<SittingValues>
            name="option_labels"
            label={t('form.option_labels')}
            options={[
              { value: 'latin', label: t('form.latin') },
              {
                value: 'devanagari',
                label: t('form.devanagari'),
                lang: scriptLang(t('form.devanagari'), i18n.language),
              },
            ]}
          />
        </div>
      )}
      <SelectField<SittingValues>
        name="booklet_pages"
        label={t('form.booklet_pages')}
        hint={t('form.booklet_pages_hint')}
        options={BOOKLET_PAGE_CHOICES.map((value) => ({ value, label: formatNumber(Number(value), language) }))}
      />
      <div className="actions">
        <SubmitButton pending={pending}>{submitLabel}</SubmitButton>
        {onCancel && <Button onClick={onCancel}>{t('form.cancel')}</Button>}
      </div>
    </AdminForm>
  )
}
