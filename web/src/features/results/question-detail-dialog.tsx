import { useTranslation } from 'react-i18next'
import { Dialog } from '../../components/ui/dialog'
import { RichText } from '../../components/ui/rich-text'
import { OptionImage, QuestionImage, reportImage } from '../../components/ui/svg-image'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import { optionLetter } from '../../lib/option-letters'
import { ChallengeSection } from './challenge-section'
import type { ReportFlag, ReportRegrade } from './challenges.api'
import type { GivenAnswer, QuestionStatus } from './question-status'
import { NumericVerdict, PartialMarks, TickedSummary } from './typed-answer'
import { KeyChanged } from './key-changed'
import type { ReportQuestion } from './results.api'
import './results.i18n'

interface QuestionDetailDialogProps {
  question: ReportQuestion | null
  number: number
  /** What the learner gave (null: nothing). */
  given: GivenAnswer | null
  /** Every question's full marks when the card tells them (question-status.ts), for a partial answer's "of 4". */
  fullMarks: number | null
  status: QuestionStatus
  attemptId: number
  flag: ReportFlag | null
  regrade: ReportRegrade | null
  challengeOpen: boolean
  onClose: () => void
}

/** One question of a report: every option, the correct one and the learner's marked in words as well as colour, the image and the hint. */
export function QuestionDetailDialog({
  question,
  number,
  given,
  fullMarks,
  status,
  attemptId,
  flag,
  regrade,
  challengeOpen,
  onClose,
}: QuestionDetailDialogProps) {
  const { t } = useTranslation('results')
  const pick = useBilingual()
  const language = useLanguage()
  const hint = question ? pick(question.hint) : ''
  const several = question?.type === 'multiple'
  const isChosen = (optionId: number) =>
    several ? (given?.ticked.includes(optionId) ?? false) : optionId === given?.selected
  const unanswered = status === 'unanswered'

  return (
    <Dialog open={question !== null} title={t('detail.title', { number })} onClose={onClose} className="report-detail">
      {question && (
        <>
          <p className="report-detail__status">
            <span className={`badge badge--${status}`}>{t(`status.${status}`)}</span>
            {regrade && <KeyChanged regrade={regrade} />}
          </p>
          {status === 'partial' && given?.marks != null && <PartialMarks marks={given.marks} fullMarks={fullMarks} />}
          {regrade?.note && (
            <p className="report-detail__regrade-note">
              <strong>{t('regrade.note')}:</strong> {regrade.note}
            </p>
          )}
          {question.passage && (
            // Folded as the exam's passage is once read: the question stays at the top of the dialog.
            <details className="report-passage">
              <summary>{t('detail.passage')}</summary>
              <RichText as="div" text={question.passage.text} />
              {question.passage.image && (
                <QuestionImage
                  image={reportImage(question.passage.image)}
                  alt={pick(question.passage.image.caption) || t('detail.passage_image_alt')}
                />
              )}
            </details>
          )}
          <RichText as="p" className="report-detail__text" text={question.text} />
          {question.image && (
            <QuestionImage
              image={reportImage(question.image)}
              alt={pick(question.image.caption) || t('detail.image_alt', { number })}
            />
          )}
          {several && !unanswered && given && <TickedSummary question={question} ticked={given.ticked} />}
          {question.type === 'numeric' && (
            <NumericVerdict question={question} value={given?.value ?? null} status={status} />
          )}
          {question.options.length > 0 && (
            <ol className="report-options">
              {question.options.map((option, index) => {
                const chosen = isChosen(option.id)
                const letter = optionLetter(index, language)
                // While the key is withheld no option is marked right, so the chosen one is not shown as wrong.
                const tone = option.is_correct ? 'correct' : chosen && status !== 'answered' ? 'incorrect' : 'plain'
                return (
                  <li key={option.id} className={`report-option report-option--${tone}`}>
                    <div className="report-option__line">
                      <span className="report-option__text">
                        <span className="report-option__letter">{letter}.</span> <RichText text={option.text} />
                      </span>
                      {(chosen || option.is_correct) && (
                        <span className="report-option__tags">
                          {chosen && <span className="tag tag--yours">{t('detail.your_answer')}</span>}
                          {option.is_correct && <span className="tag tag--correct">{t('detail.correct_answer')}</span>}
                        </span>
                      )}
                    </div>
                    {option.image && (
                      <OptionImage
                        className="report-option__image"
                        image={reportImage(option.image)}
                        zoomable
                        alt={t('detail.option_image_alt', { letter })}
                      />
                    )}
                  </li>
                )
              })}
            </ol>
          )}
          {unanswered && <p className="muted">{t('detail.not_answered')}</p>}
          {hint && (
            <aside className="report-hint" aria-label={t('detail.hint')}>
              <strong>{t('detail.hint')}:</strong> <RichText text={question?.hint} />
            </aside>
          )}
          <ChallengeSection
            key={question.id}
            attemptId={attemptId}
            question={question}
            flag={flag}
            windowOpen={challengeOpen}
          />
        </>
      )}
    </Dialog>
  )
}
