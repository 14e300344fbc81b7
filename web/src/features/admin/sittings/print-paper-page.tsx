import { SITTING_SETS } from '@quiz/contracts'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { Loading } from '../../../components/ui/loading'
import { formatMarks } from '../../../lib/format'
import { BookletQuestions, type BookletWords } from './booklet-questions'
import { PrintText, type PrintLanguage } from './print-text'
import { SittingFrame } from './sitting-frame'
import { useSittingName } from './sitting-title'
import { sittingQueries, type Sitting, type SittingPaper, type SittingSet } from './sittings.api'
import './sittings.i18n'

const LANGUAGES: readonly PrintLanguage[] = ['en', 'ne', 'both']

/** /admin/sittings/{id}/print/paper?set=A&lang=both: one set's booklet, printed by the browser on A4. */
export function Component() {
  const { t } = useTranslation('sittings')
  return (
    <SittingFrame back="sitting" className="sittings-print" heading={(name) => t('paper.title', { name })}>
      {(sitting) => <PaperPrint sitting={sitting} />}
    </SittingFrame>
  )
}

function PaperPrint({ sitting }: { sitting: Sitting }) {
  const { t } = useTranslation('sittings')
  const [params, setParams] = useSearchParams()
  const set = (sitting.sets.find((each) => each === params.get('set')) ?? 'A') as SittingSet
  const language = (LANGUAGES.find((each) => each === params.get('lang')) ?? 'both') as PrintLanguage
  const paper = useQuery(sittingQueries.paper(sitting.id, set))
  const setId = useId()
  const choose = (name: 'set' | 'lang', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current)
        next.set(name, value)
        return next
      },
      { replace: true },
    )
  return (
    <>
      <div className="card stack no-print">
        <div className="sittings-form__row">
          <div className="field">
            <label htmlFor={setId}>{t('paper.set')}</label>
            <select id={setId} value={set} onChange={(event) => choose('set', event.target.value)}>
              {sitting.sets.map((each) => (
                <option key={each} value={each}>
                  {t('paper.set_option', { set: each })}
                </option>
              ))}
            </select>
          </div>
          <fieldset className="field sittings-radios">
            <legend>{t('paper.language')}</legend>
            {LANGUAGES.map((each) => (
              <label key={each}>
                <input
                  type="radio"
                  name="print-language"
                  value={each}
                  checked={language === each}
                  onChange={() => choose('lang', each)}
                />
                {t(`paper.language_${each}`)}
              </label>
            ))}
          </fieldset>
        </div>
        <p className="field__hint">
          {t('paper.hint', { sets: SITTING_SETS.slice(0, sitting.sets.length).join(', ') })}
        </p>
        <div className="actions">
          <Button variant="primary" disabled={!paper.data} onClick={() => window.print()}>
            {t('paper.print', { set })}
          </Button>
        </div>
      </div>
      {paper.isError ? (
        <Alert kind="error">{t('paper.load_failed')}</Alert>
      ) : paper.data ? (
        <Booklet sitting={sitting} paper={paper.data} language={language} />
      ) : (
        <Loading label={t('paper.loading')} />
      )}
    </>
  )
}

/** A quiz without sections is printed as one untitled section. */
const untitled = (section: SittingPaper['sections'][number]) => !section.title.en.trim() && !section.title.ne.trim()

/** Both languages' words for what is printed on the booklet itself, whatever the admin's own language. */
function useBookletWords(language: PrintLanguage): BookletWords {
  const { i18n } = useTranslation('sittings')
  const langs = language === 'both' ? (['en', 'ne'] as const) : ([language] as const)
  return (key: string, values: Record<string, string | number> = {}) =>
    langs.map((lang) => i18n.getFixedT(lang, 'sittings')(`booklet.${key}` as 'booklet.set', values)).join(' / ')
}

export function Booklet({
  sitting,
  paper,
  language,
}: {
  sitting: Sitting
  paper: SittingPaper
  language: PrintLanguage
}) {
  const name = useSittingName()
  const words = useBookletWords(language)
  const { t } = useTranslation('sittings')
  const marks = (value: number) => formatMarks(value, language === 'ne' ? 'ne' : 'en')
  const setLabel = words('set', { set: paper.set })
  // The set and page number in the page's margin on every sheet of paper; the rule is there only while this page is.
  const pageRule = `@page { size: A4; margin: 16mm 14mm 18mm; @top-right { content: ${JSON.stringify(setLabel)}; font: 700 10pt 'Noto Sans Devanagari', sans-serif; } @bottom-center { content: ${JSON.stringify(`${setLabel} · `)} counter(page) " / " counter(pages); font: 9pt 'Noto Sans Devanagari', sans-serif; } }`
  return (
    <article className="booklet" aria-label={t('paper.preview', { set: paper.set })}>
      <style>{pageRule}</style>
      <header className="booklet__head">
        <p className="booklet__set" aria-hidden="true">
          {paper.set}
        </p>
        <h2 className="booklet__title">{name(sitting)}</h2>
        <p className="booklet__meta">
          {setLabel} · {words('questions', { count: sitting.question_count })}
        </p>
      </header>
      <section className="booklet__instructions">
        <h3>{words('instructions')}</h3>
        <PrintText as="p" text={paper.instructions} language={language} />
        <table className="booklet__scheme">
          <thead>
            <tr>
              <th scope="col">{words('section')}</th>
              <th scope="col">{words('questions_heading')}</th>
              <th scope="col">{words('right')}</th>
              <th scope="col">{words('wrong')}</th>
            </tr>
          </thead>
          <tbody>
            {paper.sections.map((section, index) => {
              const numbers = section.questions.map((question) => question.number)
              return (
                <tr key={index}>
                  <td>
                    {untitled(section) ? (
                      words('all_questions')
                    ) : (
                      <PrintText text={section.title} language={language} className="booklet__section-name" />
                    )}
                  </td>
                  <td>{numbers.length ? `${Math.min(...numbers)}–${Math.max(...numbers)}` : '–'}</td>
                  <td>{marks(section.marks_correct)}</td>
                  <td>{marks(-section.marks_wrong)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </section>
      {paper.sections.map((section, index) => (
        <section key={index} className="booklet__section">
          {!untitled(section) && (
            <h3 className="booklet__section-title">
              <PrintText text={section.title} language={language} />
            </h3>
          )}
          <BookletQuestions section={section} paper={paper} language={language} words={words} />
        </section>
      ))}
    </article>
  )
}
