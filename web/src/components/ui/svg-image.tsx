import { useBilingual, type BilingualText } from '../../i18n/use-bilingual'
import './option-image.css'

/**
 * Server SVG as an <img> with a data URL: an image context never runs script, so even an SVG the
 * sanitiser missed cannot touch the page (API.md, WEB.md).
 */
export function svgDataUrl(svg: string) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

export function SvgImage({ svg, caption, alt }: { svg: string; caption?: BilingualText | null; alt?: string }) {
  const pick = useBilingual()
  const text = pick(caption)
  return (
    <figure className="figure">
      <img src={svgDataUrl(svg)} alt={alt ?? text} />
      {text && <figcaption>{text}</figcaption>}
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
  caption: string
  alt: string
  className?: string
}) {
  return (
    <span className={className ? `option-image ${className}` : 'option-image'}>
      <img src={svgDataUrl(svg)} alt={caption ? '' : alt} />
      {caption && <span className="option-image__caption">{caption}</span>}
    </span>
  )
}
