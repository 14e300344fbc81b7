import { ScrollingTable } from '../../components/ui/scrolling-table'
import type { SectionScore } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { useLanguage } from '../../i18n/use-bilingual'
import { InlineText } from '../../components/ui/rich-text'
import { formatNumber, formatScore } from '../../lib/format'
import './sections.i18n'

/** What a report card adds for a paper's marks (API.md "Papers"): absent on a server without papers. */
export interface ReportMarks {
  max_score?: number
  sections?: SectionScore[]
}

/** A maximum as a paper prints it: "100", "2.5" (a score keeps its two decimals; a maximum needs none). */
export const formatMax = (max: number, language: string) => formatNumber(max, language, { maximumFractionDigits: 2 })

/** "12.60 of 100": the score against the paper's maximum when the report carries it, else the score alone. */
export function ScoreOfMax({ score, max }: { score: number; max: number | undefined }) {
  const { t } = useTranslation('sections')
  const language = useLanguage()
  if (max === undefined) return <>{formatScore(score, language)}</>
  return <>{t('report.total_score', { score: formatScore(score, language), max: formatMax(max, language) })}</>
}

/** The report card's table of sections: score of max, right, wrong and unanswered in each (WEB.md). */
export function ReportSections({ sections }: { sections: SectionScore[] }) {
  const { t } = useTranslation('sections')
  const language = useLanguage()
  const n = (value: number) => formatNumber(value, language)
  return (
    <section className="card report-sections" aria-labelledby="report-sections-heading">
      <h2 id="report-sections-heading">{t('report.heading')}</h2>
      <ScrollingTable
        wrapClassName="report-sections__wrap"
        tableClassName="stack-table"
        labelledBy="report-sections-heading"
        columns={[
          t('report.section'),
          t('report.score'),
          t('report.correct'),
          t('report.incorrect'),
          t('report.unanswered'),
        ]}
      >
        {sections.map((section, index) => (
          <tr key={index}>
            <th scope="row">
              {section.title.en.trim() || section.title.ne.trim() ? (
                <InlineText text={section.title} />
              ) : (
                t('section_n', { n: index + 1 })
              )}
            </th>
            <td data-label={t('report.score')}>
              {t('report.score_of', {
                score: formatScore(section.score, language),
                max: formatMax(section.max_score, language),
              })}
            </td>
            <td data-label={t('report.correct')}>{n(section.correct)}</td>
            <td data-label={t('report.incorrect')}>{n(section.incorrect)}</td>
            <td data-label={t('report.unanswered')}>{n(section.unanswered)}</td>
          </tr>
        ))}
      </ScrollingTable>
    </section>
  )
}
