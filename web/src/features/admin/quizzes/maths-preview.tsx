import { useDeferredValue, useEffect, useState } from 'react'
import { useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { texLimits } from '@quiz/contracts/rules/tex-limits'
import type { renderTexPreview } from './tex-preview'
import '../admin.i18n'

type Renderer = typeof renderTexPreview

// One load of KaTeX for every field of the form (and every form opened after it).
let loading: Promise<Renderer> | null = null
const loadRenderer = () => (loading ??= import('./tex-preview').then((module) => module.renderTexPreview))

/**
 * Under a text field: the text as learners will see it, once it holds a `$` (a formula or `\$`), re-rendered as
 * the author types; for TeX that does not parse, KaTeX's message in place of the preview, before anything is saved.
 */
export function MathsPreview({ name, lang }: { name: string; lang?: string }) {
  const { t } = useTranslation('admin')
  const value = useWatch({ name }) as unknown
  // Typing stays responsive in a long text: the preview follows a moment behind.
  const source = useDeferredValue(typeof value === 'string' ? value : '')
  const hasMaths = source.includes('$')
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
        <div className="maths-preview__text" lang={lang} dangerouslySetInnerHTML={{ __html: preview.html }} />
      ) : (
        <p className="field__error maths-preview__error">
          {preview.problem === 'tex'
            ? t('question_form.maths_error', { formula: preview.formula, problem: preview.message })
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
