import { useTranslation } from 'react-i18next'
import { Field } from '../../../components/ui/form/field'
import '../../../i18n/platform.i18n'

/** What both the create and the edit form of an institute take, as the API names it (hosts as typed). */
export type InstituteDraft = { nameEn: string; nameNe: string; hosts: string; colour: string; open: boolean }

/** The addresses as typed: one a line, or separated by commas or spaces; hosts are case-blind, so lower case. */
export const readHosts = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean)

/** The draft as the API's `name`, `hosts`, `colour` and `open_registration`. */
export const instituteFields = (draft: InstituteDraft) => ({
  name: { en: draft.nameEn, ne: draft.nameNe },
  hosts: readHosts(draft.hosts),
  colour: draft.colour,
  open_registration: draft.open,
})

/**
 * The fields an institute's create and edit forms share: names in both languages, addresses, colour and open
 * registration. `message` reads the server's refusal at a path; `hostsError` is the addresses' own (host_taken is
 * said there, naming the other institute where the form can).
 */
export function InstituteFields({
  draft,
  onChange,
  message,
  hostsError,
  hostRows,
}: {
  draft: InstituteDraft
  onChange: (draft: InstituteDraft) => void
  message: (path: string) => string | null
  hostsError: string | null
  hostRows: number
}) {
  const { t } = useTranslation('platform')
  const set = <K extends keyof InstituteDraft>(key: K, value: InstituteDraft[K]) => onChange({ ...draft, [key]: value })
  return (
    <>
      <Field label={t('platform.institutes.name_en')} error={message('name.en') ?? message('name')} required>
        {(control) => (
          <input {...control} lang="en" value={draft.nameEn} onChange={(event) => set('nameEn', event.target.value)} />
        )}
      </Field>
      <Field label={t('platform.institutes.name_ne')} error={message('name.ne')}>
        {(control) => (
          <input {...control} lang="ne" value={draft.nameNe} onChange={(event) => set('nameNe', event.target.value)} />
        )}
      </Field>
      <Field label={t('platform.institutes.hosts_field')} hint={t('platform.institutes.hosts_hint')} error={hostsError}>
        {(control) => (
          <textarea
            {...control}
            rows={hostRows}
            value={draft.hosts}
            autoCapitalize="none"
            onChange={(event) => set('hosts', event.target.value)}
          />
        )}
      </Field>
      <Field label={t('platform.institutes.colour')} error={message('colour')}>
        {(control) => (
          <input
            {...control}
            type="color"
            value={draft.colour}
            onChange={(event) => set('colour', event.target.value)}
          />
        )}
      </Field>
      <label className="checkbox">
        <input type="checkbox" checked={draft.open} onChange={(event) => set('open', event.target.checked)} />{' '}
        {t('platform.institutes.open_registration')}
      </label>
    </>
  )
}
