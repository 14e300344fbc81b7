import type { ElementType } from 'react'
import { svgDataUrl } from '../../../components/ui/svg-image'
import type { RichTextValue } from '../../../components/ui/rich-text'
import type { SittingPaper } from './sittings.api'

/** The languages a booklet is printed in. */
export type PrintLanguage = 'en' | 'ne' | 'both'

type QuizImage = SittingPaper['sections'][number]['questions'][number]['image']

const languagesOf = (language: PrintLanguage): ('en' | 'ne')[] => (language === 'both' ? ['en', 'ne'] : [language])

/**
 * A text in the booklet's language(s), maths as the server rendered it: one language each, the Nepali under the
 * English when both are printed (Nepali falls back to English where the text has none, as on screen).
 */
export function PrintText({
  text,
  language,
  as: Tag = 'span',
  className,
}: {
  text: RichTextValue | null | undefined
  language: PrintLanguage
  as?: ElementType
  className?: string
}) {
  if (!text) return null
  const shown = languagesOf(language).filter(
    (lang, _index, all) => lang === 'en' || !(all.length === 2 && !text.ne?.trim()),
  )
  return (
    <>
      {shown.map((lang) => {
        const own = lang === 'ne' && text.ne?.trim() ? 'ne' : 'en'
        const html = text.html?.[own]
        const classes = [className, shown.length === 2 ? `print-text--${lang}` : null].filter(Boolean).join(' ')
        return html ? (
          // Our server's KaTeX render, every character around the formulas escaped (see RichText).
          <Tag key={lang} lang={own} className={`rich-text ${classes}`} dangerouslySetInnerHTML={{ __html: html }} />
        ) : (
          <Tag key={lang} lang={own} className={classes || undefined}>
            {text[own]}
          </Tag>
        )
      })}
    </>
  )
}

/** A question's or option's drawing or picture, loaded at once (a print never scrolls a lazy image into view). */
export function PrintImage({ image, alt, language }: { image: QuizImage; alt: string; language: PrintLanguage }) {
  if (!image) return null
  const source = image.svg !== null ? svgDataUrl(image.svg) : image.picture?.url
  if (!source) return null
  return (
    <figure className="print-figure">
      <img
        src={source}
        alt={alt}
        width={image.svg === null ? image.picture?.width : undefined}
        height={image.svg === null ? image.picture?.height : undefined}
      />
      {image.caption && (image.caption.en || image.caption.ne) && (
        <figcaption>
          <PrintText text={image.caption} language={language} />
        </figcaption>
      )}
    </figure>
  )
}
