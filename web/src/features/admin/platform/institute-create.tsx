import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Field } from '../../../components/ui/form/field'
import { useAdminMessages } from '../forms'
import { fieldError } from './field-errors'
import { instituteFields, InstituteFields, type InstituteDraft } from './institute-fields'
import { useCreateInstitute } from './platform.api'
import '../../../i18n/platform.i18n'
import '../admin.i18n'
import './platform.css'

const EMPTY: InstituteDraft = { nameEn: '', nameNe: '', hosts: '', colour: '#1d4ed8', open: false }

/** "Add an institute": slug, names, addresses, colour and open registration, as the API takes them. */
export function CreateInstitute() {
  const { t } = useTranslation('platform')
  const messages = useAdminMessages()
  const create = useCreateInstitute()
  const [slug, setSlug] = useState('')
  const [draft, setDraft] = useState(EMPTY)
  const [created, setCreated] = useState<string | null>(null)
  const error = create.error
  const message = (path: string) => {
    const text = fieldError(error, path)
    return text ? messages(text) : null
  }
  const code = error instanceof ApiError ? error.code : null
  return (
    <section className="stack platform-create" aria-labelledby="platform-create">
      <h2 id="platform-create">{t('platform.institutes.create')}</h2>
      <div aria-live="polite">
        {created && <Alert kind="success">{t('platform.institutes.created', { name: created })}</Alert>}
        {create.isError && (
          <Alert kind="error">
            {/* host_taken is said at the addresses' field; any other 409 is the slug's. */}
            {code !== 'host_taken' && error instanceof ApiError && error.status === 409
              ? t('platform.institutes.slug_taken')
              : t('platform.institutes.create_failed')}
          </Alert>
        )}
      </div>
      <form
        className="stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          setCreated(null)
          create.mutate(
            { slug: slug.trim(), ...instituteFields(draft) },
            {
              onSuccess: (institute) => {
                setCreated(institute.name.en)
                setSlug('')
                setDraft(EMPTY)
              },
            },
          )
        }}
      >
        <Field
          label={t('platform.institutes.slug')}
          hint={t('platform.institutes.slug_hint')}
          error={message('slug')}
          required
        >
          {(control) => (
            <input {...control} value={slug} autoCapitalize="none" onChange={(event) => setSlug(event.target.value)} />
          )}
        </Field>
        <InstituteFields
          draft={draft}
          onChange={setDraft}
          message={message}
          hostsError={code === 'host_taken' ? t('platform.institutes.host_taken') : message('hosts')}
          hostRows={2}
        />
        <div className="actions">
          <Button type="submit" variant="primary" disabled={create.isPending}>
            {create.isPending ? t('platform.institutes.saving') : t('platform.institutes.save')}
          </Button>
        </div>
      </form>
    </section>
  )
}
