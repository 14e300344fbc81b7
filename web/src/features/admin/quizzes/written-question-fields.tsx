import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { TextField } from '../../../components/ui/form/fields'
import { ErrorList } from '../../../components/ui/form/server-errors'
import { BilingualFields } from '../forms'
import { RubricEditor } from '../rubric/rubric-editor'
import type { useRubricDraft } from '../rubric/rubric-save'
import { mathsPreview } from './maths-preview'
import type { QuestionDraft } from './question-draft'
import '../admin.i18n'

/** A written question's marks, word limit, model answer and rubric, with the rubric's own refusals. */
export function WrittenQuestionFields({ rubric }: { rubric: ReturnType<typeof useRubricDraft> }) {
  const { t } = useTranslation('admin')
  return (
    <>
      <div className="admin-grid">
        <TextField<QuestionDraft> name="marks" label={t('written.marks')} hint={t('written.marks_hint')} />
        <TextField<QuestionDraft>
          name="word_limit"
          label={t('written.word_limit')}
          hint={t('written.word_limit_hint')}
        />
      </div>
      <BilingualFields
        labels={{ en: t('written.model_answer_en'), ne: t('written.model_answer_ne') }}
        rows={4}
        name="model_answer"
        preview={mathsPreview}
      />
      {rubric.loading ? (
        <p className="muted">{t('written.rubric.loading')}</p>
      ) : (
        <RubricEditor draft={rubric.draft} onChange={rubric.setDraft} disabled={rubric.saving} />
      )}
      {rubric.problem?.kind === 'changed' && (
        <Alert kind="error">
          {t('written.rubric.changed')}{' '}
          <Button small onClick={() => void rubric.reload()}>
            {t('written.rubric.reload')}
          </Button>
        </Alert>
      )}
      {rubric.problem?.kind === 'refused' && (
        <Alert kind="error">
          {t('written.rubric.refused')}
          <ErrorList lines={rubric.problem.lines} />
        </Alert>
      )}
    </>
  )
}
