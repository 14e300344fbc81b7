import { useDeferredValue, useEffect, useState } from 'react'
import { useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { texLimits } from '@quiz/contracts/rules/tex-limits'
import { tableLimits, type TableProblem } from '@quiz/contracts/rules/pipe-tables'
import type { renderTexPreview } from './tex-preview'
import '../admin.i18n'

type Renderer = typeof renderTexPreview

// One load of KaTeX for every field of the form (and every form opened after it).
let loading: Promise<Renderer> | null = null
const loadRenderer = () => (loading ??= import('./tex-preview').then((module) => module.renderTexPreview))

// Two lines between pipes in a row make a table (`@quiz/contracts/rules/pipe-tables`); one alone is text (`|x|`).
const TABLE_ROWS = /^[ \t]*\|.*\|[ \t]*\n[ \t]*\|.*\|[ \t]*$/m

/** A table problem's sentence (the server says the same in English); row 0 is the header line. */
const tableKey = (problem: TableProblem) =>
  problem.code === 'table_row_length' && problem.row === 0 ? 'table_header_length' : problem.code

/**
 * Under a text field: the text as learners will see it, once it holds a `$` (a formula or `\$`) or a table,
 * re-rendered as the author types; for TeX that does not parse or a malformed table, the reason in place of the
 * preview, before anything is saved.
 */
export function MathsPreview({ name, lang }: { name: string; lang?: string }) {
  const { t } = useTranslation('admin')
  const value = useWatch({ name }) as unknown
  // Typing stays responsive in a long text: the preview follows a moment behind.
  const source = useDeferredValue(typeof value === 'string' ? value : '')
  const hasMaths = source.includes('$') || TABLE_ROWS.test(source)
  const [render, setRender] = useState<Renderer | null>(null)

  useEffect(() => {
    if (!hasMaths || render) return
    let current = true
    void loadRenderer().then((renderer) => {
      if (current) setRender(() => renderer)
    })
    return () => {
      current = false
    }
  }, [hasMaths, render])

  if (!hasMaths) return null
  const preview = render?.(source)
  return (
    <div className="admin-preview maths-preview">
      <p className="admin-preview__label">{t('question_form.preview')}</p>
      {!preview ? (
        <span className="muted">{t('question_form.maths_loading')}</span>
      ) : preview.ok ? (
        // Safe to inject: KaTeX's MathML (`trust: false`) with every other character escaped (tex-preview.ts).
        <div className="maths-preview__text rich-text" lang={lang} dangerouslySetInnerHTML={{ __html: preview.html }} />
      ) : (
        <p className="field__error maths-preview__error">
          {preview.problem === 'tex'
            ? t('question_form.maths_error', { formula: preview.formula, problem: preview.message })
            : preview.problem === 'table'
              ? t(`question_form.${tableKey(preview.table)}`, { ...preview.table, ...tableLimits })
              : 'formula' in preview
                ? t(`question_form.maths_${preview.problem}`, { formula: preview.formula, ...texLimits })
                : t(`question_form.maths_${preview.problem}`)}
        </p>
      )}
    </div>
  )
}

/** BilingualFields' `preview` for the texts of a question: each field's maths preview. */
export const mathsPreview = (field: string, lang: 'en' | 'ne') => <MathsPreview name={field} lang={lang} />
