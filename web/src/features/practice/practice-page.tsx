import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import './practice.i18n'
import { Link } from 'react-router'
import {
  answerPracticeCard,
  answerPracticeTyped,
  practiceDeckQuery,
  practiceKeys,
  type PracticeAnswerResult,
  type PracticeCard,
} from '../../api/practice'
import { Alert } from '../../components/ui/alert'
import { Loading } from '../../components/ui/loading'
import { RichText } from '../../components/ui/rich-text'
import { PictureZoom } from '../../components/ui/picture-image'
import { OptionImage, QuestionImage } from '../../components/ui/svg-image'
import { useBilingual, useLanguage, scriptLang } from '../../i18n/use-bilingual'
import { formatDateTime, formatNumber } from '../../lib/format'
import { optionLetter } from '../../lib/option-letters'
import { paths } from '../../lib/paths'
import './practice.css'
import { Button, buttonClass } from '../../components/ui/button'
import { TypedPractice } from './typed-practice'

/** WEB.md "Practice": one due card at a time; choosing an option shows at once whether it was right, and why. */
export function Component() {
  const { t } = useTranslation('practice')
  const language = useLanguage()
  const queryClient = useQueryClient()
  const deck = useQuery(practiceDeckQuery())
  // The card on screen stays while its feedback shows, even after the deck is refetched without it.
  const [current, setCurrent] = useState<PracticeCard | null>(null)
  const [feedback, setFeedback] = useState<Feedback | null>(null)
  const answer = useMutation({
    mutationFn: ({ questionId, given }: { questionId: number; given: Given }) =>
      typeof given === 'number' ? answerPracticeCard(questionId, given) : answerPracticeTyped(questionId, given),
    onSuccess: (result, { given }) => {
      setFeedback({ given, result })
      void queryClient.invalidateQueries({ queryKey: practiceKeys.deck })
    },
  })

  if (deck.isError) return <Alert kind="error">{t('load_failed')}</Alert>
  if (deck.isPending) return <Loading label={t('loading')} />

  const card = current ?? deck.data.cards[0] ?? null
  const next = () => {
    setCurrent(null)
    setFeedback(null)
    answer.reset()
  }

  return (
    <div className="practice stack">
      <div className="page-header">
        <h1>{t('title')}</h1>
        <p className="muted" role="status">
          {t('due_count', { count: deck.data.due })}
        </p>
      </div>
      <p className="muted">{t('intro')}</p>
      {card === null ? (
        <div className="card">
          <p>
            {deck.data.total === 0
              ? t('empty')
              : deck.data.next_due_at
                ? t('next_due', { date: formatDateTime(deck.data.next_due_at, language) })
                : t('all_done')}
          </p>
          <Link className={buttonClass({ variant: 'primary' })} to={paths.home()}>
            {t('go_to_dashboard')}
          </Link>
        </div>
      ) : (
        <PracticeQuestion
          key={card.question.id}
          card={card}
          feedback={feedback}
          busy={answer.isPending}
          failed={answer.isError}
          onAnswer={(given) => {
            setCurrent(card)
            answer.mutate({ questionId: card.question.id, given })
          }}
          onNext={next}
        />
      )}
      {card !== null && (
        <p className="muted">{t('box', { box: formatNumber(card.box, language), total: formatNumber(3, language) })}</p>
      )}
    </div>
  )
}

/** A choice question's option, a multiple question's ticked ids or a numeric question's typed string. */
type Given = number | number[] | string
interface Feedback {
  given: Given
  result: PracticeAnswerResult
}

interface PracticeQuestionProps {
  card: PracticeCard
  feedback: Feedback | null
  busy: boolean
  failed: boolean
  onAnswer: (given: Given) => void
  onNext: () => void
}

function PracticeQuestion({ card, feedback, busy, failed, onAnswer, onNext }: PracticeQuestionProps) {
  const { t } = useTranslation('practice')
  const pick = useBilingual()
  const language = useLanguage()
  const { question } = card
  const answered = feedback !== null
  const nextButton = useRef<HTMLButtonElement>(null)
  // The chosen option is disabled once answered, which would drop focus to the top of the page: the next step is here.
  useEffect(() => {
    if (answered) nextButton.current?.focus()
  }, [answered])

  return (
    <section className="card practice-card" aria-labelledby="practice-question">
      {question.topic && (
        <p className="badge" lang={scriptLang(question.topic, language)}>
          {question.topic}
        </p>
      )}
      <RichText as="p" id="practice-question" className="practice-card__text" text={question.text} />
      {question.image && <QuestionImage image={question.image} alt={pick(question.image.caption)} />}
      {question.type === 'multiple' || question.type === 'numeric' ? (
        <TypedPractice question={question} result={feedback?.result ?? null} busy={busy} onAnswer={onAnswer} />
      ) : (
        <ul className="practice-options" aria-labelledby="practice-question">
          {question.options.map((option, index) => {
            const isCorrect = feedback?.result.correct_option_id === option.id
            const isChosen = feedback?.given === option.id
            const state = !answered
              ? ''
              : isCorrect
                ? ' practice-option--correct'
                : isChosen
                  ? ' practice-option--wrong'
                  : ''
            const letter = optionLetter(index, language)
            return (
              <li key={option.id}>
                <button
                  type="button"
                  className={`row-button practice-option${state}`}
                  disabled={answered || busy}
                  onClick={() => onAnswer(option.id)}
                >
                  <span aria-hidden="true">{letter}.</span> <RichText text={option.text} inControl />
                  {option.image && <OptionImage image={option.image} alt={t('option_image_alt', { letter })} />}
                  {answered && isCorrect && <span className="visually-hidden"> ({t('correct_option')})</span>}
                  {answered && isChosen && !isCorrect && <span className="visually-hidden"> ({t('your_answer')})</span>}
                </button>
                {option.image?.picture && (
                  <PictureZoom
                    picture={option.image.picture}
                    alt={t('option_image_alt', { letter })}
                    caption={option.image.caption}
                  />
                )}
              </li>
            )
          })}
        </ul>
      )}
      {failed && <Alert kind="error">{t('answer_failed')}</Alert>}
      <div aria-live="polite">
        {feedback && (
          <div className={`practice-feedback practice-feedback--${feedback.result.correct ? 'right' : 'wrong'}`}>
            <p className="practice-feedback__verdict">
              {feedback.result.correct ? t('right') : t('wrong')}{' '}
              {feedback.result.box === null
                ? t('retired')
                : feedback.result.due_at && feedback.result.box > 1
                  ? t('moved_up', { date: formatDateTime(feedback.result.due_at, language) })
                  : t('back_to_first')}
            </p>
            {feedback.result.hint && (
              <p>
                <strong>{t('hint')}:</strong> <RichText text={feedback.result.hint} />
              </p>
            )}
          </div>
        )}
      </div>
      {answered && (
        <Button variant="primary" onClick={onNext} ref={nextButton}>
          {t('next')}
        </Button>
      )}
    </section>
  )
}
