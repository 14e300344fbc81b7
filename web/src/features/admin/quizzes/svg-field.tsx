import { useDeferredValue, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { SvgImage } from '../../../components/ui/svg-image'
import { useBilingual } from '../../../i18n/use-bilingual'
import { useWatch } from 'react-hook-form'
import { TextField } from '../../../components/ui/form/fields'
import type { Bilingual } from './quizzes.api'
import { BilingualFields, pairFields } from '../forms'
import { mathsPreview } from './maths-preview'
import { PictureField } from './picture-field'
import '../admin.i18n'

/** The server's paths under an image ("image", "options.2.image") and the fields of an SvgField that show them. */
export const imageFields = (path: string): Record<string, string> => ({
  [path]: `${path}.svg`,
  [`${path}.svg`]: `${path}.svg`,
  [`${path}.picture`]: `${path}.picture`,
  ...pairFields(`${path}.caption`),
})

/** Well-formed SVG markup? A paste cut short shows as a broken image, so say why before saving. */
function isWellFormedSvg(svg: string): boolean {
  if (typeof DOMParser === 'undefined') return true
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml')
  return document.getElementsByTagName('parsererror').length === 0 && document.documentElement.localName === 'svg'
}

interface SvgFieldProps {
  label: string
  pictureLabel: string
  captionEnLabel: string
  captionNeLabel: string
  /** The image's `{svg, picture, caption}` in the form, also its path in the request ("image", "options.2.image"). */
  name: string
}

/**
 * An SVG textarea or a picture, with the captions they share and live previews drawn exactly as learners get them
 * (the SVG as an <img> with a data URL).
 */
export function SvgField({ label, pictureLabel, captionEnLabel, captionNeLabel, name }: SvgFieldProps) {
  const { t } = useTranslation('admin')
  const pick = useBilingual()
  const [markup, captions] = useWatch({ name: [`${name}.svg`, `${name}.caption`] }) as [string, Bilingual]
  // Typing into a 200 KB paste stays responsive: the preview follows a moment behind.
  const svg = useDeferredValue(markup.trim())
  const wellFormed = useMemo(() => (svg ? isWellFormedSvg(svg) : true), [svg])
  const caption = pick(captions)

  return (
    <div className="admin-svg">
      <TextField
        name={`${name}.svg`}
        label={label}
        multiline
        code
        rows={4}
        placeholder={t('question_form.svg_placeholder')}
        hint={t('question_form.svg_hint')}
      />
      {svg && (
        <div className="admin-preview">
          <p className="admin-preview__label">{t('question_form.preview')}</p>
          {wellFormed ? (
            <SvgImage svg={svg} caption={captions} alt={caption ? undefined : t('question_form.preview_alt')} />
          ) : (
            <p className="field__error">{t('question_form.svg_malformed')}</p>
          )}
        </div>
      )}
      <PictureField label={pictureLabel} name={name} />
      <div className="admin-grid">
        <BilingualFields
          labels={{ en: captionEnLabel, ne: captionNeLabel }}
          name={`${name}.caption`}
          preview={mathsPreview}
        />
      </div>
    </div>
  )
}
