import { useDeferredValue, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { SvgImage } from '../../components/ui/svg-image'
import { useBilingual } from '../../i18n/use-bilingual'
import type { FieldErrors } from '../../components/ui/form/server-errors'
import { TextField } from '../../components/ui/form/text-field'
import type { ImageDraft } from './question-draft'
import { BilingualFields, messagesAt } from './ui'
import './admin.i18n'

/** The field paths an SvgField shows errors for, under `prefix` ("image", "options.2.image"). */
export const svgFieldPaths = (prefix: string) => [
  prefix,
  `${prefix}.svg`,
  `${prefix}.caption`,
  `${prefix}.caption.en`,
  `${prefix}.caption.ne`,
]

/** Well-formed SVG markup? A paste cut short shows as a broken image, so say why before saving. */
function isWellFormedSvg(svg: string): boolean {
  if (typeof DOMParser === 'undefined') return true
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml')
  return document.getElementsByTagName('parsererror').length === 0 && document.documentElement.localName === 'svg'
}

interface SvgFieldProps {
  label: string
  captionEnLabel: string
  captionNeLabel: string
  image: ImageDraft
  onChange: (image: ImageDraft) => void
  errors: FieldErrors
  /** The image's field path in the request ("image", "options.2.image"). */
  path: string
}

/** An SVG textarea with its captions and a live preview drawn exactly as learners get it: an <img> with a data URL. */
export function SvgField({ label, captionEnLabel, captionNeLabel, image, onChange, errors, path }: SvgFieldProps) {
  const { t } = useTranslation('admin')
  const pick = useBilingual()
  // Typing into a 200 KB paste stays responsive: the preview follows a moment behind.
  const svg = useDeferredValue(image.svg.trim())
  const wellFormed = useMemo(() => (svg ? isWellFormedSvg(svg) : true), [svg])
  const caption = pick(image.caption)

  return (
    <div className="admin-svg">
      <TextField
        label={label}
        multiline
        code
        rows={4}
        value={image.svg}
        placeholder={t('question_form.svg_placeholder')}
        hint={t('question_form.svg_hint')}
        errors={messagesAt(errors, path, `${path}.svg`)}
        onChange={(value) => onChange({ ...image, svg: value })}
      />
      {svg && (
        <div className="admin-preview">
          <p className="admin-preview__label">{t('question_form.preview')}</p>
          {wellFormed ? (
            <SvgImage svg={svg} caption={image.caption} alt={caption ? undefined : t('question_form.preview_alt')} />
          ) : (
            <p className="field__error">{t('question_form.svg_malformed')}</p>
          )}
        </div>
      )}
      <div className="admin-grid">
        <BilingualFields
          labels={{ en: captionEnLabel, ne: captionNeLabel }}
          value={image.caption}
          path={`${path}.caption`}
          errors={errors}
          onChange={(language, text) => onChange({ ...image, caption: { ...image.caption, [language]: text } })}
        />
      </div>
    </div>
  )
}
