import { useTranslation } from 'react-i18next'
import { PrintImage, PrintText, type PrintLanguage } from './print-text'
import type { SittingPaper } from './sittings.api'
import './sittings.i18n'

type Section = SittingPaper['sections'][number]
type Question = Section['questions'][number]
type Passage = SittingPaper['passages'][number]
/** The booklet's words in its print language(s) (both joined by " / "). */
export type BookletWords = (key: string, values?: Record<string, string | number>) => string

// A numeric question's boxes: a sign and seven characters hold any answer a sheet's grid can (docs/decisions/131).
const NUMBER_BOXES = 8

/** Neighbouring questions under one passage, or a run of questions under none. */
function runsOf(questions: readonly Question[]) {
  const runs: { passageId: number | null; questions: Question[] }[] = []
  for (const question of questions) {
    const last = runs.at(-1)
    if (last && last.passageId === question.passage_id) last.questions.push(question)
    else runs.push({ passageId: question.passage_id, questions: [question] })
  }
  return runs
}

/**
 * A section's questions as printed: each passage once, before its first question, saying which numbers it serves;
 * a multiple question says several options may be right; a numeric one prints boxes instead of options.
 */
export function BookletQuestions({
  section,
  paper,
  language,
  words,
}: {
  section: Section
  paper: SittingPaper
  language: PrintLanguage
  words: BookletWords
}) {
  const passages = new Map(paper.passages.map((passage) => [passage.id, passage]))
  return (
    <>
      {runsOf(section.questions).map((run) => {
        const passage = run.passageId === null ? undefined : passages.get(run.passageId)
        const list = (
          <ol className="booklet__questions">
            {run.questions.map((question) => (
              <BookletQuestion key={question.number} question={question} language={language} words={words} />
            ))}
          </ol>
        )
        if (!passage) return <div key={run.questions[0]!.number}>{list}</div>
        const numbers = paper.sections
          .flatMap((each) => each.questions)
          .filter((question) => question.passage_id === passage.id)
          .map((question) => question.number)
        const [from, to] = [Math.min(...numbers), Math.max(...numbers)]
        const first = from === run.questions[0]!.number
        return (
          <div key={run.questions[0]!.number} className="booklet__passage-group">
            {first && <PassageBlock passage={passage} from={from} to={to} language={language} words={words} />}
            {list}
          </div>
        )
      })}
    </>
  )
}

function PassageBlock({
  passage,
  from,
  to,
  language,
  words,
}: {
  passage: Passage
  from: number
  to: number
  language: PrintLanguage
  words: BookletWords
}) {
  const { t } = useTranslation('sittings')
  const serves = from === to ? words('passage_question', { from }) : words('passage_questions', { from, to })
  return (
    <section className="booklet__passage" aria-label={words('passage')}>
      <p className="booklet__passage-serves">{serves}</p>
      <PrintText as="div" text={passage.text} language={language} className="booklet__passage-text" />
      <PrintImage image={passage.image} alt={t('paper.passage_image_alt', { from })} language={language} />
    </section>
  )
}

function BookletQuestion({
  question,
  language,
  words,
}: {
  question: Question
  language: PrintLanguage
  words: BookletWords
}) {
  const { t } = useTranslation('sittings')
  return (
    <li className="booklet__question" value={question.number}>
      <span className="booklet__number">{question.number}.</span>
      <div className="booklet__body">
        <PrintText as="p" text={question.text} language={language} className="booklet__text" />
        <PrintImage
          image={question.image}
          alt={t('paper.image_alt', { number: question.number })}
          language={language}
        />
        {question.type === 'multiple' && <p className="booklet__how">{words('choose_several')}</p>}
        {question.type === 'numeric' ? (
          <>
            <p className="booklet__how">{words('numeric')}</p>
            <div className="booklet__boxes" aria-hidden="true">
              {Array.from({ length: NUMBER_BOXES }, (_, index) => (
                <span key={index} className="booklet__box" />
              ))}
            </div>
          </>
        ) : (
          question.options.length > 0 && (
            <ol className="booklet__options">
              {question.options.map((option) => (
                <li key={option.label}>
                  <span className="booklet__label">({option.label})</span>{' '}
                  <PrintText text={option.text} language={language} />
                  <PrintImage
                    image={option.image}
                    alt={t('paper.option_image_alt', { number: question.number, label: option.label })}
                    language={language}
                  />
                </li>
              ))}
            </ol>
          )
        )}
      </div>
    </li>
  )
}
