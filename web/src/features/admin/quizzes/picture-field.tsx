import { pictureLimits, pictureMessages } from '@quiz/contracts'
import { useId, useRef, type ClipboardEvent } from 'react'
import { useFormContext, useFormState, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Button } from '../../../components/ui/button'
import { useFieldMessage } from '../../../components/ui/form/field-message'
import { QuestionImage } from '../../../components/ui/svg-image'
import { uiMessages } from '../forms'
import type { Bilingual } from './quizzes.api'
import type { PictureDraft } from './question-draft'
import '../admin.i18n'
import { readAsDataUrl } from '../../../lib/data-url'

/** What the server reads (API.md "Pictures in questions"); anything else it refuses, so the device does first. */
const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']

interface PictureFieldProps {
  label: string
  /** The image's `{svg, picture, caption}` in the form, also its path in the request ("image", "options.2.image"). */
  name: string
}

/**
 * A picture for a question or an option: a file chosen or pasted from the clipboard, refused here when the server
 * would refuse it, and a preview drawn as learners get it. A stored picture goes back by its url, never re-sent.
 */
export function PictureField({ label, name }: PictureFieldProps) {
  const { t } = useTranslation('admin')
  const { control, setValue, setError, clearErrors, getFieldState } = useFormContext()
  const path = `${name}.picture`
  const [picture, caption] = useWatch({ control, name: [path, `${name}.caption`] }) as [PictureDraft | null, Bilingual]
  const formState = useFormState({ control, name: path })
  const error = useFieldMessage()(getFieldState(path, formState).error)
  const fileInput = useRef<HTMLInputElement>(null)
  const groupId = useId()
  const hintId = useId()
  const messageId = useId()
  const describedBy = `${hintId} ${messageId}`

  const take = async (file: File) => {
    if (!PICTURE_TYPES.includes(file.type)) return setError(path, { message: pictureMessages.notAPicture })
    if (file.size > pictureLimits.bytes) return setError(path, { message: pictureMessages.tooLarge })
    const url = await readAsDataUrl(file).catch(() => null)
    if (url === null) return setError(path, { message: pictureMessages.notAPicture })
    clearErrors(path)
    const chosen: PictureDraft = { url, width: null, height: null, stored: false }
    setValue(path, chosen, { shouldDirty: true })
  }
  const paste = (event: ClipboardEvent) => {
    const file = [...event.clipboardData.files].find((item) => item.type.startsWith('image/'))
    // Text pasted into the paste box is not a picture, and the box keeps nothing typed.
    event.preventDefault()
    if (file) void take(file)
    else setError(path, { message: uiMessages.noPastedPicture })
  }
  const remove = () => {
    clearErrors(path)
    setValue(path, null, { shouldDirty: true })
    fileInput.current?.focus()
  }

  return (
    <div className="field admin-picture" role="group" aria-labelledby={groupId} onPaste={paste}>
      <span id={groupId} className="admin-picture__label">
        {label}
      </span>
      <span id={hintId} className="field__hint">
        {t('question_form.picture_hint')}
      </span>
      <div className="admin-picture__inputs">
        <label className="admin-picture__choose">
          {t('question_form.picture_choose')}
          <input
            ref={fileInput}
            type="file"
            accept={PICTURE_TYPES.join(',')}
            aria-invalid={Boolean(error)}
            aria-describedby={describedBy}
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              event.currentTarget.value = ''
              if (file) void take(file)
            }}
          />
        </label>
        <input
          type="text"
          className="admin-picture__paste"
          value=""
          onChange={() => undefined}
          inputMode="none"
          aria-label={t('question_form.picture_paste')}
          placeholder={t('question_form.picture_paste')}
          aria-invalid={Boolean(error)}
          aria-describedby={describedBy}
        />
      </div>
      <span id={messageId} aria-live="polite" className="field__error">
        {error}
      </span>
      {picture && (
        <div className="admin-preview">
          <p className="admin-preview__label">{t('question_form.preview')}</p>
          <QuestionImage
            image={{ svg: null, picture, caption }}
            alt={caption.en || caption.ne ? undefined : t('question_form.preview_alt')}
          />
          {!picture.stored && <p className="field__hint">{t('question_form.picture_new')}</p>}
          <Button small onClick={remove}>
            {t('question_form.picture_remove')}
          </Button>
        </div>
      )}
    </div>
  )
}
