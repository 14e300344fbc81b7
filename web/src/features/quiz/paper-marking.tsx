import { ScrollingTable } from '../../components/ui/scrolling-table'
import type { QuizListItem, QuizListSection } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { digitsFor, formatNumber, formatScore } from '../../lib/format'
import { SectionName } from './section-tabs'
import './sections.i18n'
import './quiz.i18n'

/** What the instructions need of a paper's sections: the list's quiz carries them (API.md "Papers"). */
export type SectionSummary = QuizListSection

/** A quiz's sections; none for a paper without any (the plain marking lines then). */
export const sectionSummaries = (quiz: Pick<QuizListItem, 'sections'>): SectionSummary[] | undefined =>
  quiz.sections.length > 0 ? quiz.sections : undefined

/** Marks as a paper prints them: "+2", "−0.4" ("0" when nothing is taken off). */
const marksText = (marks: number, language: string) =>
  digitsFor(formatScore(marks).replace(/0+$/, '').replace(/\.$/, ''), language)
const plus = (marks: number, language: string) => `+${marksText(marks, language)}`
const minus = (marks: number, language: string) =>
  marks === 0 ? formatNumber(0, language) : `-${marksText(marks, language)}`

/**
 * The instructions' marking scheme for a paper with sections: one line per mark when it has one section, else a
 * table of the sections with their questions, marks and times (WEB.md "Sections on the exam screen").
 */
export function PaperMarking({ sections }: { sections: SectionSummary[] }) {
  const { t } = useTranslation('sections')
  const { t: tQuiz } = useTranslation('quiz')
  const language = useLanguage()
  const timed = sections.every((section) => section.time_limit_minutes !== null)
  const max = sections.reduce((sum, section) => sum + section.count * Math.round(section.marks_correct * 100), 0) / 100
  const only = sections.length === 1 ? sections[0]! : null

  return (
    <section aria-labelledby="marking-heading">
      <h2 id="marking-heading">{only ? tQuiz('instructions.marking_title') : t('instructions.heading')}</h2>
      {only ? (
        <ul className="instructions__marking">
          <li>
            <strong className="mark mark--plus">{plus(only.marks_correct, language)}</strong>{' '}
            <span>{tQuiz('instructions.marking_correct')}</span>
          </li>
          <li>
            <strong className="mark mark--minus">{minus(only.marks_wrong, language)}</strong>{' '}
            <span>{tQuiz('instructions.marking_wrong')}</span>
          </li>
          <li>
            <strong className="mark">{formatNumber(0, language)}</strong>{' '}
            <span>{tQuiz('instructions.marking_unanswered')}</span>
          </li>
        </ul>
      ) : (
        <ScrollingTable
          wrapClassName="sections-table-wrap"
          tableClassName="sections-table stack-table"
          labelledBy="marking-heading"
          columns={[
            t('instructions.section'),
            t('instructions.questions'),
            t('instructions.right'),
            t('instructions.wrong'),
            t('instructions.time'),
          ]}
        >
          {sections.map((section, index) => (
            <tr key={index}>
              <th scope="row">
                <SectionName section={section} index={index} />
              </th>
              <td data-label={t('instructions.questions')}>{formatNumber(section.count, language)}</td>
              <td data-label={t('instructions.right')}>{plus(section.marks_correct, language)}</td>
              <td data-label={t('instructions.wrong')}>{minus(section.marks_wrong, language)}</td>
              <td data-label={t('instructions.time')}>
                {section.time_limit_minutes === null
                  ? t('instructions.no_limit')
                  : t('instructions.minutes', { count: section.time_limit_minutes })}
              </td>
            </tr>
          ))}
        </ScrollingTable>
      )}
      <p>{t('instructions.max_score', { max: marksText(max, language) })}</p>
      {!only && <p>{t('instructions.unanswered')}</p>}
      {timed && !only && <p>{t('instructions.timed_rule')}</p>}
    </section>
  )
}
