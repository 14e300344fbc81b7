import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { CheckboxField, SelectField, TextField } from '../../../components/ui/form/fields'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber } from '../../../lib/format'
import { undescribedPictures, type QuestionDraft } from '../quizzes/question-draft'
import type { BankFieldsDraft } from './bank-draft'
import './bank.i18n'

/** The server's paths of the bank fields and the form fields that show them (a message about one tag goes to Tags). */
export function bankFieldPaths(tagCount = 20): Record<string, string> {
  const fields: Record<string, string> = {
    tags: 'tags',
    difficulty: 'difficulty',
    source: 'source',
    needs_sight: 'needs_sight',
  }
  for (let index = 0; index < tagCount; index += 1) fields[`tags.${index}`] = 'tags'
  return fields
}

/**
 * Tags, difficulty and source: what the bank's filters and a paper's draws choose questions by. In the bank's own
 * form (`inBank`), "Needs sight" too; in both, the pictures a blind learner would not hear, named as the author types.
 */
export function BankFields({ inBank = false }: { inBank?: boolean }) {
  const { t } = useTranslation('bank')
  return (
    <>
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
      <NoDescriptionNotice inBank={inBank} />
      {inBank && (
        <CheckboxField<BankFieldsDraft>
          name="needs_sight"
          label={t('blind.needs_sight')}
          hint={t('blind.needs_sight_hint')}
        />
      )}
    </>
  )
}

/** WEB.md "A blind learner, with TalkBack, in Nepali": a picture without a caption is flagged in the bank's form. */
function NoDescriptionNotice({ inBank }: { inBank: boolean }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const { control } = useFormContext<QuestionDraft>()
  const [type, image, options] = useWatch({ control, name: ['type', 'image', 'options'] })
  const bare = undescribedPictures({ type, image, options })
  if (bare.length === 0) return null
  const names = bare.map((which) =>
    which === 'question'
      ? t('blind.question_picture')
      : t('blind.option_picture', { n: formatNumber(which + 1, language) }),
  )
  return (
    <div className="bank-blind-note">
      <span className="badge badge--medium">{t('blind.no_description')}</span>{' '}
      {t(inBank ? 'blind.no_description_detail_bank' : 'blind.no_description_detail', { pictures: names.join(', ') })}
    </div>
  )
}
