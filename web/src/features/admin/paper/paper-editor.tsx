import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../../components/ui/alert'
import { Button } from '../../../components/ui/button'
import { ErrorList, fieldErrorsOf, type FieldErrors } from '../../../components/ui/form/server-errors'
import { useLanguage } from '../../../i18n/use-bilingual'
import { formatNumber, formatScore } from '../../../lib/format'
import { useAdminMessages } from '../forms'
import { bankQueries } from '../bank/bank.api'
import {
  emptySection,
  fixedIds,
  passageIds,
  paperDraft,
  paperTotals,
  toSectionsPayload,
  type QuizWithPaper,
  type SectionDraft,
} from './paper-draft'
import { SectionEditor } from './section-editor'
import { DrawModePanel, type DrawOutcome } from './draw-mode-panel'
import { useSaveSections } from './paper.api'
import '../bank/bank.i18n'

/** "sections.1.items.2.draw.count" -> "Section 2, item 3: count" for a warning or a refusal no field shows. */
function usePlace() {
  const { t } = useTranslation('bank')
  return (path: string) => {
    const match = /^sections\.(\d+)(?:\.items\.(\d+))?/.exec(path)
    if (!match) return path
    const section = Number(match[1]) + 1
    return match[2] === undefined
      ? t('paper.place_section', { n: section })
      : t('paper.place_item', { n: section, item: Number(match[2]) + 1 })
  }
}

/** Every path a field on screen shows; the others go to the summary under the Save button. */
function shownPaths(sections: SectionDraft[]) {
  const paths: string[] = []
  sections.forEach((section, index) => {
    const at = `sections.${index}`
    paths.push(at, `${at}.title`, `${at}.title.en`, `${at}.title.ne`, `${at}.marks_correct`, `${at}.marks_wrong`)
    paths.push(`${at}.time_limit_minutes`, `${at}.items`)
    section.items.forEach((_, item) => {
      const itemPath = `${at}.items.${item}`
      paths.push(itemPath, `${itemPath}.question_id`, `${itemPath}.draw`)
      for (const field of ['topic', 'tags', 'difficulty', 'source', 'count']) paths.push(`${itemPath}.draw.${field}`)
    })
  })
  return paths
}

/** The Paper tab's editor: the sections as the author arranges them, saved together (PUT .../sections/). */
export function PaperEditor({ quiz }: { quiz: QuizWithPaper }) {
  const { t } = useTranslation('bank')
  const messages = useAdminMessages()
  const place = usePlace()
  const [sections, setSections] = useState<SectionDraft[]>(() => paperDraft(quiz))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [outcome, setOutcome] = useState<'saved' | 'failed' | DrawOutcome | null>(null)
  const facets = useQuery(bankQueries.facets())
  const save = useSaveSections(quiz.id)
  const inPaper = useMemo(() => fixedIds(sections), [sections])
  const passagesInPaper = useMemo(() => passageIds(sections), [sections])

  const errorAt = (path: string) => {
    const first = errors[path]?.[0]
    return first ? messages(first) : null
  }
  const shown = useMemo(() => shownPaths(sections), [sections])

  const change = (next: SectionDraft[]) => {
    setSections(next)
    setOutcome(null)
  }
  const setSection = (index: number, section: SectionDraft) =>
    change(sections.map((other, at) => (at === index ? section : other)))
  const moveSection = (index: number, by: -1 | 1) => {
    const next = [...sections]
    const [section] = next.splice(index, 1)
    next.splice(index + by, 0, section!)
    change(next)
  }

  const submit = () => {
    setErrors({})
    setOutcome(null)
    save.mutate(toSectionsPayload(sections), {
      onSuccess: (saved) => {
        // The server's answer is the paper as stored: each draw's pool and the warnings come with it.
        setSections(paperDraft(saved))
        setOutcome('saved')
      },
      onError: (error) => {
        setErrors(fieldErrorsOf(error))
        setOutcome('failed')
      },
    })
  }

  const unclaimed = Object.entries(errors)
    .filter(([path]) => !shown.includes(path))
    .flatMap(([path, list]) =>
      list.map((message) => (path ? `${path.startsWith('sections.') ? place(path) : path}: ` : '') + messages(message)),
    )

  return (
    // Not a <form>: the bank picker's search form opens inside it, and forms do not nest.
    <div className="paper">
      <PaperTotalsCard sections={sections} />
      <PaperWarnings warnings={quiz.warnings ?? []} />

      <DrawModePanel
        quiz={quiz}
        sections={sections}
        onDrawn={(saved) => setSections(paperDraft(saved))}
        onOutcome={setOutcome}
      />
      {outcome === 'redrawn' && <Alert kind="success">{t('paper.redrawn')}</Alert>}
      {outcome === 'frozen' && <Alert kind="success">{t('paper.frozen_now')}</Alert>}
      {outcome === 'redraw_refused' && <Alert kind="error">{t('paper.redraw_refused')}</Alert>}
      {outcome === 'draw_failed' && <Alert kind="error">{t('paper.draw_failed')}</Alert>}

      {sections.map((section, index) => (
        <SectionEditor
          key={section.key}
          section={section}
          index={index}
          count={sections.length}
          errors={errorAt}
          facets={facets.data}
          inPaper={inPaper}
          passagesInPaper={passagesInPaper}
          frozen={quiz.draw_mode === 'frozen'}
          onChange={(next) => setSection(index, next)}
          onMove={(by) => moveSection(index, by)}
          onRemove={() => change(sections.filter((_, at) => at !== index))}
        />
      ))}
      <p className="actions">
        <Button onClick={() => change([...sections, emptySection()])}>{t('paper.add_section')}</Button>
      </p>

      {outcome === 'saved' && <Alert kind="success">{t('paper.saved')}</Alert>}
      {outcome === 'failed' && (
        <Alert kind="error">
          {Object.keys(errors).length > 0 ? t('paper.save_failed') : t('paper.save_failed_plain')}
          <ErrorList lines={unclaimed} />
        </Alert>
      )}
      <div className="actions admin-form-actions">
        <Button variant="primary" disabled={save.isPending} onClick={submit}>
          {save.isPending ? t('paper.saving') : t('paper.save')}
        </Button>
      </div>
    </div>
  )
}

function PaperTotalsCard({ sections }: { sections: SectionDraft[] }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const totals = paperTotals(sections)
  const n = (value: number) => formatNumber(value, language)
  return (
    <div className="card paper-totals" aria-live="polite">
      <strong>{t('paper.totals_heading')}</strong>{' '}
      {t('paper.totals', {
        count: totals.questions,
        n: n(totals.questions),
        max: totals.maxHundredths === null ? '—' : formatScore(totals.maxHundredths / 100, language),
      })}
      {totals.minutes !== null && ` ${t('paper.totals_minutes', { count: totals.minutes, n: n(totals.minutes) })}`}
    </div>
  )
}

function PaperWarnings({ warnings }: { warnings: NonNullable<QuizWithPaper['warnings']> }) {
  const { t } = useTranslation('bank')
  const place = usePlace()
  if (warnings.length === 0) return null
  return (
    <Alert kind="error">
      {t('paper.warnings')}
      <ul>
        {warnings.map((warning) => (
          <li key={warning.path}>
            {place(warning.path)}: {warning.message}
          </li>
        ))}
      </ul>
    </Alert>
  )
}
