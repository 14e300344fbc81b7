import { useTranslation } from 'react-i18next'
import { SelectField, TextField } from '../../../components/ui/form/fields'
import type { BankFieldsDraft } from './bank-draft'
import './bank.i18n'

/** The server's paths of the bank fields and the form fields that show them (a message about one tag goes to Tags). */
export function bankFieldPaths(tagCount = 20): Record<string, string> {
  const fields: Record<string, string> = { tags: 'tags', difficulty: 'difficulty', source: 'source' }
  for (let index = 0; index < tagCount; index += 1) fields[`tags.${index}`] = 'tags'
  return fields
}

/** Tags, difficulty and source: what the bank's filters and a paper's draws choose questions by. */
export function BankFields() {
  const { t } = useTranslation('bank')
  return (
    <div className="admin-grid">
      <TextField<BankFieldsDraft> name="tags" label={t('fields.tags')} hint={t('fields.tags_hint')} />
      <SelectField<BankFieldsDraft>
        name="difficulty"
        label={t('fields.difficulty')}
        options={[
          { value: '', label: t('difficulty.none') },
          { value: 'easy', label: t('difficulty.easy') },
          { value: 'medium', label: t('difficulty.medium') },
          { value: 'hard', label: t('difficulty.hard') },
        ]}
      />
      <TextField<BankFieldsDraft> name="source" label={t('fields.source')} hint={t('fields.source_hint')} />
    </div>
  )
}
