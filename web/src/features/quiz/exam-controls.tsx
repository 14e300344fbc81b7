import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import type { ExamSections } from './use-exam-sections'
import type { Submission } from './use-submit-attempt'
import './quiz.i18n'
import './sections.i18n'

interface ExamControlsProps {
  number: number
  total: number
  paper: ExamSections | null
  exam: Submission
  handingIn: boolean
  goTo: (number: number, options?: { scroll?: boolean }) => void
  onSubmit: () => void
  onNextSection: () => void
}

/** Previous, Next and Submit under the question, a sectioned paper's "Next section", and a failed hand-in. */
export function ExamControls({
  number,
  total,
  paper,
  exam,
  handingIn,
  goTo,
  onSubmit,
  onNextSection,
}: ExamControlsProps) {
  const { t } = useTranslation('quiz')
  return (
    <>
      <div className="quiz__controls">
        <Button
          disabled={number <= 1 || (paper !== null && !paper.canVisit(number - 1))}
          onClick={() => goTo(number - 1, { scroll: true })}
        >
          {t('previous')}
        </Button>
        <Button
          disabled={number >= total || (paper !== null && !paper.canVisit(number + 1))}
          onClick={() => goTo(number + 1, { scroll: true })}
        >
          {t('next')}
        </Button>
        <Button variant="success" className="quiz__submit" disabled={handingIn} onClick={onSubmit}>
          {exam.sending ? t('submitting') : t('submit_quiz')}
        </Button>
      </div>
      {paper?.canMoveOn && (
        <Button className="section-next" disabled={handingIn || paper.moving === 'sending'} onClick={onNextSection}>
          {paper.moving === 'sending' ? t('moving', { ns: 'sections' }) : t('next_section', { ns: 'sections' })}
        </Button>
      )}
      {exam.failed && <Alert kind="error">{t('errors.submit_failed')}</Alert>}
    </>
  )
}
