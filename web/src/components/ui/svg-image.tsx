import { useBilingual, useBilingualLang } from '../../i18n/use-bilingual'
import { RichText, type RichTextValue } from './rich-text'
import './option-image.css'

/**
 * Server SVG as an <img> with a data URL: an image context never runs script, so even an SVG the
 * sanitiser missed cannot touch the page (API.md, WEB.md).
 */
export function svgDataUrl(svg: string) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

/** A figure with its caption; a caption with maths is drawn rendered, and its plain reading is the alt text. */
export function SvgImage({ svg, caption, alt }: { svg: string; caption?: RichTextValue | null; alt?: string }) {
  const pick = useBilingualLang()
  const { text, lang } = pick(caption)
  const shownAlt = alt ?? text
  return (
    <figure className="figure">
      {/* An alt that is the caption is read in the caption's language. */}
      <img src={svgDataUrl(svg)} alt={shownAlt} lang={shownAlt === text ? lang : undefined} />
      {text && <RichText as="figcaption" text={caption} />}
    </figure>
  )
}

/**
 * An answer option's picture, inside the option's label. A visible caption already names the image, so its alt
 * is then empty and the option's accessible name does not say it twice.
 */
export function OptionImage({
  svg,
  caption,
  alt,
  className,
}: {
  svg: string
  caption: RichTextValue | null | undefined
  alt: string
  className?: string
}) {
  const pick = useBilingual()
  const hasCaption = pick(caption) !== ''
  return (
    <span className={className ? `option-image ${className}` : 'option-image'}>
      <img src={svgDataUrl(svg)} alt={hasCaption ? '' : alt} />
      {hasCaption && <RichText className="option-image__caption" text={caption} inControl />}
    </span>
  )
}
