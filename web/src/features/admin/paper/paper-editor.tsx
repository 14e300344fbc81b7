import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../api/api-error'
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
  paperDraft,
  paperTotals,
  toSectionsPayload,
  type QuizWithPaper,
  type SectionDraft,
} from './paper-draft'
import { SectionEditor } from './section-editor'
import { useDrawMode, useFreeze, useRedraw, useSaveSections } from './paper.api'
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

/** The Paper tab's editor: the sections as the author arranges them, saved together (PUT .../sections/). */
export function PaperEditor({ quiz }: { quiz: QuizWithPaper }) {
  const { t } = useTranslation('bank')
  const language = useLanguage()
  const messages = useAdminMessages()
  const place = usePlace()
  const [sections, setSections] = useState<SectionDraft[]>(() => paperDraft(quiz))
  const [errors, setErrors] = useState<FieldErrors>({})
  const [outcome, setOutcome] = useState<
    'saved' | 'failed' | 'redrawn' | 'frozen' | 'redraw_refused' | 'draw_failed' | null
  >(null)
  const facets = useQuery(bankQueries.facets())
  const save = useSaveSections(quiz.id)
  const drawMode = useDrawMode(quiz.id)
  const redraw = useRedraw(quiz.id)
  const freeze = useFreeze(quiz.id)
  const inPaper = useMemo(() => fixedIds(sections), [sections])
  const totals = paperTotals(sections)
  const n = (value: number) => formatNumber(value, language)

  const errorAt = (path: string) => {
    const first = errors[path]?.[0]
    return first ? messages(first) : null
  }
  // Every path a field on screen shows; the others go to the summary under the Save button.
  const shown = useMemo(() => {
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
  }, [sections])

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
  const warnings = quiz.warnings ?? []
  const frozen = quiz.draw_mode === 'frozen'
  const hasDraws = sections.some((section) => section.items.some((item) => item.kind === 'draw'))
  const drawn = (quiz.sections ?? []).some((section) =>
    section.items.some((item) => 'drawn' in item && item.drawn.length > 0),
  )
  // Freezing and drawing again work on the saved paper: with edits unsaved, the author saves first.
  const unsaved = JSON.stringify(toSectionsPayload(sections)) !== JSON.stringify(toSectionsPayload(paperDraft(quiz)))
  const drawNow = (action: typeof freeze, done: 'frozen' | 'redrawn') =>
    action.mutate(undefined, {
      onSuccess: (saved) => {
        setSections(paperDraft(saved))
        setOutcome(done)
      },
      onError: (error) =>
        setOutcome(error instanceof ApiError && error.status === 409 ? 'redraw_refused' : 'draw_failed'),
    })

  return (
    // Not a <form>: the bank picker's search form opens inside it, and forms do not nest.
    <div className="paper">
      <div className="card paper-totals" aria-live="polite">
        <strong>{t('paper.totals_heading')}</strong>{' '}
        {t('paper.totals', {
          count: totals.questions,
          n: n(totals.questions),
          max: totals.maxHundredths === null ? '—' : formatScore(totals.maxHundredths / 100, language),
        })}
        {totals.minutes !== null && ` ${t('paper.totals_minutes', { count: totals.minutes, n: n(totals.minutes) })}`}
      </div>

      {warnings.length > 0 && (
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
      )}

      <fieldset className="card paper-mode">
        <legend>{t('paper.draw_mode')}</legend>
        {(['per_attempt', 'frozen'] as const).map((mode) => (
          <div className="checkbox" key={mode}>
            <input
              id={`draw-mode-${mode}`}
              type="radio"
              name="draw_mode"
              checked={(quiz.draw_mode ?? 'per_attempt') === mode}
              disabled={drawMode.isPending}
              onChange={() => drawMode.mutate(mode)}
            />
            <label htmlFor={`draw-mode-${mode}`}>{t(`paper.mode_${mode}`)}</label>
          </div>
        ))}
        {drawMode.isError && <Alert kind="error">{t('paper.mode_failed')}</Alert>}
        {hasDraws && (
          <div className="actions">
            <span className="muted">{frozen && drawn ? t('paper.frozen_hint') : t('paper.freeze_hint')}</span>
            {frozen && drawn ? (
              <Button disabled={redraw.isPending || unsaved} onClick={() => drawNow(redraw, 'redrawn')}>
                {t('paper.redraw')}
              </Button>
            ) : (
              <Button disabled={freeze.isPending || unsaved} onClick={() => drawNow(freeze, 'frozen')}>
                {t('paper.freeze')}
              </Button>
            )}
            {unsaved && <p className="muted">{t('paper.save_first')}</p>}
          </div>
        )}
      </fieldset>
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
          frozen={frozen}
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
