import { useState, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { useBilingualLang } from '../../i18n/use-bilingual'
import { Dialog } from './dialog'
import { RichText, type RichTextValue } from './rich-text'
import './picture-image.css'

/** A picture as shown: a stored one, or one chosen in the editor not yet sent (its size then not known). */
export interface ShownPicture {
  url: string
  width: number | null
  height: number | null
}

interface PictureImageProps {
  picture: ShownPicture
  alt: string
  /** The alt's language, when it is not the page's (a caption shown in the other language). */
  lang?: string
  /** The caption, the full-screen view's name; else the alt names it. */
  caption?: RichTextValue | null
  /** Only the exam's own question picture is above the fold; every other one loads as it scrolls near. */
  eager?: boolean
}

/**
 * A raster picture: width and height set so the page does not jump when it arrives, shrunk to the screen, and a
 * tap opens it full screen at its full size, where the phone's pinch zoom works.
 */
export function PictureImage({ picture, alt, lang, caption, eager = false }: PictureImageProps) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="picture__open" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <PictureTag picture={picture} alt={alt} lang={lang} eager={eager} />
        <span className="visually-hidden"> ({t('picture.open')})</span>
      </button>
      <FullScreenPicture open={open} onClose={() => setOpen(false)} picture={picture} alt={alt} caption={caption} />
    </>
  )
}

/** The bare <img>, for a picture inside a control (an option's label or button), where no button may nest. */
export function PictureTag({ picture, alt, lang, eager = false }: Omit<PictureImageProps, 'caption'>) {
  const { width, height } = picture
  return (
    <img
      className="picture"
      src={picture.url}
      alt={alt}
      lang={lang}
      width={width ?? undefined}
      height={height ?? undefined}
      // Its proportions, for a screen that caps its height (the exam on a phone) and must still know its width
      // before it arrives.
      style={width && height ? ({ '--picture-ratio': width / height } as CSSProperties) : undefined}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  )
}

/**
 * The full-screen button of a picture shown inside a control, placed beside that control: a tap on the picture
 * itself chooses the option, as it always has.
 */
export function PictureZoom({ picture, alt, caption }: Omit<PictureImageProps, 'eager' | 'lang'>) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="picture__zoom" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('picture.open_named', { name: alt })}
      </button>
      <FullScreenPicture open={open} onClose={() => setOpen(false)} picture={picture} alt={alt} caption={caption} />
    </>
  )
}

interface FullScreenPictureProps {
  open: boolean
  onClose: () => void
  picture: ShownPicture
  alt: string
  caption?: RichTextValue | null
}

/** The picture at its full size in the app's dialog (focus returns to the opener), named by its caption. */
function FullScreenPicture({ open, onClose, picture, alt, caption }: FullScreenPictureProps) {
  const { t } = useTranslation()
  const [actualSize, setActualSize] = useState(false)
  const pick = useBilingualLang()
  return (
    <Dialog
      open={open}
      title={pick(caption).text ? <RichText text={caption} /> : alt || t('picture.title')}
      onClose={onClose}
      className="picture-dialog"
    >
      <div className="picture-dialog__frame">
        {/* Fitted to the screen first, so the whole picture is seen; its own size on a press, to read a detail. */}
        <button
          type="button"
          className="picture-dialog__toggle"
          aria-pressed={actualSize}
          onClick={() => setActualSize((actual) => !actual)}
        >
          <img
            className={`picture-dialog__image${actualSize ? ' picture-dialog__image--actual' : ''}`}
            src={picture.url}
            alt={alt}
            width={picture.width ?? undefined}
            height={picture.height ?? undefined}
          />
          <span className="visually-hidden">{t('picture.actual_size')}</span>
        </button>
      </div>
    </Dialog>
  )
}
