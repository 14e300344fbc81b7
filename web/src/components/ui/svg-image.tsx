import { useBilingual, type BilingualText } from '../../i18n/use-bilingual'

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
