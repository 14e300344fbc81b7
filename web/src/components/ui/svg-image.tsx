import { useBilingual, useBilingualLang } from '../../i18n/use-bilingual'
import { PictureImage, PictureTag, type ShownPicture } from './picture-image'
import { RichText, type RichTextValue } from './rich-text'
import './option-image.css'

/** Any payload's image: an SVG drawing or a picture (API.md "Pictures in questions"), with its caption. */
export interface ShownImage {
  svg: string | null
  picture: ShownPicture | null
  caption?: RichTextValue | null
}

/** The report card's image (SPEC.md names its drawing `svg_content`) in the shape every other payload has. */
export const reportImage = (image: {
  svg_content: string | null
  picture: ShownPicture | null
  caption: RichTextValue
}): ShownImage => ({ svg: image.svg_content, picture: image.picture, caption: image.caption })

/**
 * Server SVG as an <img> with a data URL: an image context never runs script, so even an SVG the
 * sanitiser missed cannot touch the page (API.md, WEB.md).
 */
export function svgDataUrl(svg: string) {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
}

/** A figure with its caption; a caption with maths is drawn rendered, and its plain reading is the alt text. */
export function SvgImage({ svg, caption, alt }: { svg: string; caption?: RichTextValue | null; alt?: string }) {
  return <QuestionImage image={{ svg, picture: null, caption }} alt={alt} />
}

/**
 * A question's image with its caption: the SVG drawing, or the picture (which a tap opens full screen). `eager`
 * only for the exam's own question, the one picture above the fold.
 */
export function QuestionImage({ image, alt, eager }: { image: ShownImage; alt?: string; eager?: boolean }) {
  const pick = useBilingualLang()
  const { text, lang } = pick(image.caption)
  const shownAlt = alt ?? text
  // An alt that is the caption is read in the caption's language.
  const altLang = shownAlt === text ? lang : undefined
  return (
    <figure className="figure">
      {image.picture && image.svg === null ? (
        <PictureImage picture={image.picture} alt={shownAlt} lang={altLang} caption={image.caption} eager={eager} />
      ) : (
        <img src={svgDataUrl(image.svg ?? '')} alt={shownAlt} lang={altLang} />
      )}
      {text && <RichText as="figcaption" text={image.caption} />}
    </figure>
  )
}

/**
 * An answer option's image, inside the option's label. A visible caption already names the image, so its alt
 * is then empty and the option's accessible name does not say it twice. Inside the option's control a picture is
 * only shown (the control takes the tap, and the screen puts a PictureZoom beside it); elsewhere it is `zoomable`.
 */
export function OptionImage({
  image,
  alt,
  className,
  zoomable = false,
}: {
  image: ShownImage
  alt: string
  className?: string
  zoomable?: boolean
}) {
  const pick = useBilingual()
  const hasCaption = pick(image.caption) !== ''
  const shownAlt = hasCaption ? '' : alt
  return (
    <span className={className ? `option-image ${className}` : 'option-image'}>
      {image.picture && image.svg === null ? (
        zoomable ? (
          <PictureImage picture={image.picture} alt={alt} caption={image.caption} />
        ) : (
          <PictureTag picture={image.picture} alt={shownAlt} />
        )
      ) : (
        <img src={svgDataUrl(image.svg ?? '')} alt={shownAlt} />
      )}
      {hasCaption && <RichText className="option-image__caption" text={image.caption} inControl />}
    </span>
  )
}
