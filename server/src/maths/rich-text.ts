import type { Bilingual, RichText } from '@quiz/contracts'
import { describeProblem, escapeHtml, renderMaths } from './render-maths'

// Rendered once, when the text is written, so no request ever renders (docs/decisions/027).

export interface RenderedBilingual {
  plain: Bilingual
  html: Bilingual
}

export type StoredMaths = Partial<Record<'text' | 'hint' | 'caption' | 'model_answer', RenderedBilingual>>

// Throws on TeX that does not parse: callers have checked the text first (checkMaths), so that is a bug.
export function renderBilingual(text: Bilingual): RenderedBilingual | null {
  const en = renderMaths(text.en)
  const ne = renderMaths(text.ne)
  if (!en.ok || !ne.ok) throw new Error(describeProblem(!en.ok ? en : (ne as { formula: null; problem: string })))
  if (en.rendered === null && ne.rendered === null) return null
  const plainEn = en.rendered?.plain ?? text.en
  const plainNe = ne.rendered?.plain ?? text.ne
  return {
    plain: { en: plainEn, ne: plainNe },
    html: { en: en.rendered?.html ?? escapeHtml(text.en), ne: ne.rendered?.html ?? escapeHtml(text.ne) },
  }
}

export function storedMaths(fields: Partial<Record<keyof StoredMaths, Bilingual | null>>): string | null {
  const stored: StoredMaths = {}
  for (const [field, text] of Object.entries(fields) as [keyof StoredMaths, Bilingual | null][]) {
    const rendered = text && renderBilingual(text)
    if (rendered) stored[field] = rendered
  }
  return Object.keys(stored).length === 0 ? null : JSON.stringify(stored)
}

export const parseStoredMaths = (json: string | null): StoredMaths => (json ? (JSON.parse(json) as StoredMaths) : {})

// Learners read the plain reading in `en`/`ne` (never TeX); admins the source they wrote.
export function richText(source: Bilingual, rendered: RenderedBilingual | undefined, audience: 'learner' | 'admin') {
  if (!rendered) return { en: source.en, ne: source.ne, html: null } satisfies RichText
  const shown = audience === 'learner' ? rendered.plain : source
  return { en: shown.en, ne: shown.ne, html: rendered.html } satisfies RichText
}
