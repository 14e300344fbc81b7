import type { AttemptSection } from '@quiz/contracts'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert'
import { Button } from '../../components/ui/button'
import { Dialog } from '../../components/ui/dialog'
import { InlineText } from '../../components/ui/rich-text'
import { useBilingual, useLanguage } from '../../i18n/use-bilingual'
import { formatNumber } from '../../lib/format'
import { accessOf, answeredPerSection, type SectionAccess } from './exam-sections'
import type { ExamSections } from './use-exam-sections'
import './sections.i18n'
import './sections.css'

/** A section's name in an element: its title, marked with its language where that is not the page's (decision 050). */
export function SectionName({ section, index }: { section: Pick<AttemptSection, 'title'>; index: number }) {
  const { t } = useTranslation('sections')
  return section.title.en.trim() || section.title.ne.trim() ? (
    <InlineText text={section.title} />
  ) : (
    <>{t('section_n', { n: index + 1 })}</>
  )
}

/** A section's name as a string (its title, or "Section 2"), for a sentence or a label that cannot hold an element. */
export function useSectionName() {
  const { t } = useTranslation('sections')
  const pick = useBilingual()
  return (section: Pick<AttemptSection, 'title'>, index: number) =>
    section.title.en.trim() || section.title.ne.trim() ? pick(section.title) : t('section_n', { n: index + 1 })
}

interface SectionTabsProps {
  paper: ExamSections
  questionIds: number[]
  isAnswered: (questionId: number) => boolean
  onSelect: (index: number) => void
}

/**
 * The sections above the navigator (as NTA's and IBPS's screens), each with its answered count. In a timed paper a
 * later section is locked until its turn, and a closed one can be looked at but no longer answered.
 */
export function SectionTabs({ paper, questionIds, isAnswered, onSelect }: SectionTabsProps) {
  const { t } = useTranslation('sections')
  const language = useLanguage()
  const answered = answeredPerSection(paper.sections, questionIds, isAnswered)
  const n = (value: number) => formatNumber(value, language)
  return (
    <nav className="section-tabs" aria-label={t('tabs_label')}>
      <ul>
        {paper.sections.map((section, index) => {
          const access: SectionAccess = accessOf(paper.sections, index)
          const current = index === paper.viewing
          const count = t('answered_count', { answered: n(answered[index] ?? 0), total: n(section.count) })
          return (
            <li key={index}>
              <button
                type="button"
                className={`section-tab section-tab--${access}${current ? ' section-tab--current' : ''}`}
                aria-current={current ? 'true' : undefined}
                disabled={access === 'locked'}
                onClick={() => onSelect(index)}
              >
                <span className="section-tab__name">
                  <SectionName section={section} index={index} />
                </span>
                <span className="section-tab__count">{count}</span>
                {access !== 'open' && <span className="section-tab__state">{t(`access.${access}`)}</span>}
              </button>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}

/** What the learner must know about the section on screen: read-only when closed, answers the server dropped. */
export function SectionNotices({ paper }: { paper: ExamSections }) {
  const { t } = useTranslation('sections')
  const language = useLanguage()
  const name = useSectionName()
  const viewing = paper.sections[paper.viewing]
  return (
    <>
      {viewing && accessOf(paper.sections, paper.viewing) === 'closed' && (
        <Alert kind="info">{t('closed_notice', { name: name(viewing, paper.viewing) })}</Alert>
      )}
      {paper.dropped.length > 0 && (
        <Alert kind="error">
          {t('dropped', {
            count: paper.dropped.length,
            numbers: new Intl.ListFormat(language, { type: 'conjunction' }).format(paper.dropped.map(String)),
          })}
        </Alert>
      )}
      {paper.moving === 'failed' && <Alert kind="error">{t('next_failed')}</Alert>}
      {paper.moving === 'unsaved' && <Alert kind="error">{t('next_unsaved')}</Alert>}
    </>
  )
}

interface NextSectionDialogProps {
  open: boolean
  paper: ExamSections
  questionIds: number[]
  isAnswered: (questionId: number) => boolean
  onCancel: () => void
  onConfirm: () => void
}

/** "Move on to the next section?": the open section closes for good, whatever time it has left. */
export function NextSectionDialog({
  open,
  paper,
  questionIds,
  isAnswered,
  onCancel,
  onConfirm,
}: NextSectionDialogProps) {
  const { t } = useTranslation('sections')
  const language = useLanguage()
  const name = useSectionName()
  const current = paper.sections[paper.open]
  const next = paper.sections[paper.open + 1]
  if (!current || !next) return null
  const answered = answeredPerSection(paper.sections, questionIds, isAnswered)[paper.open] ?? 0
  return (
    <Dialog
      open={open}
      title={t('next_title', { name: name(next, paper.open + 1) })}
      onClose={onCancel}
      actions={
        <>
          <Button onClick={onCancel}>{t('stay')}</Button>
          <Button variant="primary" disabled={paper.moving === 'sending'} onClick={onConfirm}>
            {t('next_confirm')}
          </Button>
        </>
      }
    >
      <p>
        {t('next_answered', {
          name: name(current, paper.open),
          answered: formatNumber(answered, language),
          total: formatNumber(current.count, language),
        })}
      </p>
      <p>{t('next_irreversible', { name: name(current, paper.open) })}</p>
    </Dialog>
  )
}
