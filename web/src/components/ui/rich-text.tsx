import { useEffect, useRef, type ElementType, type HTMLAttributes } from 'react'
import { langOf, pickLanguage, pickText, type BilingualText } from '../../i18n/use-bilingual'
import { useTranslation } from 'react-i18next'
import { preview } from '../../lib/preview'
import './rich-text.css'

/** A question's, option's, hint's or caption's text: `{en, ne}` and, when it holds maths, `html: {en, ne}`. */
export interface RichTextValue extends BilingualText {
  html?: { en: string; ne: string } | null
}

type RichTextProps = HTMLAttributes<HTMLElement> & {
  text: RichTextValue | null | undefined
  /** The element the text is drawn in (a `<p>` for a question, a `<span>` inside an option's label). */
  as?: ElementType
  /**
   * In a control named by its content (an option's label, a button): a name is flat text, and not every tool
   * computes one from MathML (axe computes none), so the formulas are then only drawn, and named by the plain
   * reading the server made for exactly this (the learner's `en`/`ne`), which assistive technology reads instead.
   */
  inControl?: boolean
}

/**
 * The html of a text in the chosen language, with the same fallback as every other bilingual text: Nepali when
 * Nepali is chosen and the text has it (`html.ne` is "" exactly when `ne` is), else English. Null without maths.
 */
export function pickHtml(text: RichTextValue | null | undefined, language: string): string | null {
  if (!text?.html) return null
  return pickLanguage(text.html, language)
}

/**
 * A text shown as the server rendered it when it has maths (MathML, drawn natively by the browser: no maths
 * JavaScript, stylesheet or fonts), else as plain text. A learner never sees TeX: their `en`/`ne` hold a plain
 * reading and `html` the formulas. Shown in the other language than the page's (a fallback), it carries that `lang`.
 */
export function RichText({ text, as: Tag = 'span', className, inControl = false, ...rest }: RichTextProps) {
  const { i18n } = useTranslation()
  const picked = pickText(text, i18n.language)
  const lang = langOf(picked, i18n.language)
  const html = pickHtml(text, i18n.language)
  const classes = className ? `rich-text ${className}` : 'rich-text'
  const drawnRef = useRef<HTMLElement>(null)
  // TalkBack skips MathML: each formula gets its spoken label once drawn (spoken-maths.ts). Loaded only where a
  // formula is, so the screens without maths do not carry the reader.
  useEffect(() => {
    const element = drawnRef.current
    if (!element || inControl || !html?.includes('<math')) return
    void import('./spoken-maths').then(({ labelFormulas }) => labelFormulas(element))
  }, [html, inControl])
  if (html === null)
    return (
      <Tag className={className} lang={lang} {...rest}>
        {picked.text}
      </Tag>
    )
  // Safe to inject: this html is only ever our server's KaTeX render (MathML with `trust: false`, so no links or
  // script) and table markup, with every other character escaped there (server/src/maths/render-maths.ts).
  if (!inControl)
    return <Tag ref={drawnRef} className={classes} lang={lang} {...rest} dangerouslySetInnerHTML={{ __html: html }} />
  // A table's box takes focus to be scrolled by keyboard; hidden inside a control it must not (axe aria-hidden-focus).
  const drawn = { __html: html.replaceAll('<div class="q-table" tabindex="0"', '<div class="q-table"') }
  return (
    <Tag className={classes} lang={lang} {...rest}>
      <span aria-hidden="true" dangerouslySetInnerHTML={drawn} />
      <span className="visually-hidden">{picked.text}</span>
    </Tag>
  )
}

/**
 * A one-line preview of a text in a list or table (WEB.md: the first 80 characters). A text with maths cannot be
 * cut without breaking its formulas, so it is shown whole and clipped to two lines by CSS instead.
 */
export function RichPreview({ text, maxLength }: { text: RichTextValue | null | undefined; maxLength: number }) {
  const { i18n } = useTranslation()
  if (text?.html) return <RichText text={text} className="rich-text--clamp" />
  const picked = pickText(text, i18n.language)
  return inLanguage(preview(picked.text, maxLength, picked.language), langOf(picked, i18n.language))
}

/**
 * A bilingual text without maths inside a sentence, cell or list item: no element of its own unless it is shown in
 * the other language than the page's, when a `<span lang>` tells a screen reader to switch voice.
 */
export function InlineText({ text }: { text: BilingualText | null | undefined }) {
  const { i18n } = useTranslation()
  const picked = pickText(text, i18n.language)
  return inLanguage(picked.text, langOf(picked, i18n.language))
}

function inLanguage(shown: string, lang: string | undefined) {
  return lang ? <span lang={lang}>{shown}</span> : <>{shown}</>
}
