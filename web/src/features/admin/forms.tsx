// The admin forms' own pieces: the form around the fields, the English/Nepali pair, the resolvers and how their
// messages are shown. Apart from ui.tsx, so that the admin's lists load neither react-hook-form nor zod.
// SPEC.md section 5 leaves the bounds and required fields of the quiz and question forms to the server, so those two
// forms send what the admin typed (`sendAsTyped`); the others check on the client only what the original app did.
import { zodResolver } from '@hookform/resolvers/zod'
import {
  AdminUserPatchSchema,
  adminMessages,
  institutionMessages,
  liveMessages,
  pictureMessages,
  planMessages,
} from '@quiz/contracts'
import { useEffect, useRef, type FormEventHandler, type ReactNode } from 'react'
import { FormProvider, type FieldValues, type Resolver, type UseFormReturn } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FieldMessages } from '../../components/ui/form/field-message'
import { TextField } from '../../components/ui/form/fields'
import { formatNumber } from '../../lib/format'
import { parseRupees } from '../../lib/money'
import './admin.i18n'

/** The UI's own texts, for what only the UI can get wrong; shown through the same mapping as the contracts'. */
export const uiMessages = {
  invalidJson: 'Invalid JSON format. Please check your data.',
  price: 'Enter a price in rupees, with at most two decimals.',
  noPastedPicture: 'The clipboard holds no picture: copy a picture, then paste it here.',
} as const

/**
 * A resolver that checks nothing: every save is sent, and the server's refusal lands on the fields. It is there
 * because with a resolver each save starts from no messages; without one, react-hook-form keeps a server message on
 * a field it does not know (the correct-option radios) and would refuse the next save itself.
 */
export function sendAsTyped<T extends FieldValues>(): Resolver<T> {
  return (values) => ({ values, errors: {} })
}

export interface PlanValues {
  name: { en: string; ne: string }
  /** Rupees as typed ("1,299.90"); the resolver gives paisa, which the request carries. */
  price: string
  days: string
  active: boolean
}
/** What the plan resolver gives: the request's fields, the price in paisa. */
export interface PlanOutput {
  name: { en: string; ne: string }
  price: number
  days: number
  active: boolean
}
/**
 * Only the price is checked here, as the original form did: rupees the form cannot read have no paisa to send.
 * The name, the price's minimum and the days are the server's to refuse (it answers by field).
 */
export const planResolver = zodResolver(
  z.object({
    name: z.object({ en: z.string(), ne: z.string() }),
    price: z.string().transform((text, context) => {
      const paisa = parseRupees(text)
      if (paisa === null) context.addIssue({ code: 'custom', message: uiMessages.price })
      return paisa ?? 0
    }),
    days: z.string().transform(Number),
    active: z.boolean(),
  }),
) as Resolver<PlanValues, unknown, PlanOutput>

export interface LearnerValues {
  has_paid_access: boolean
  /** A date input's value; the request carries the end of that day in the admin's time zone. */
  end_date: string
  extra_time_percent: string
}
/** The extra time is checked as typed, as the original dialog did: Save stays off while it is out of range. */
export const learnerResolver = zodResolver(
  z.object({
    has_paid_access: z.boolean(),
    end_date: z.string(),
    extra_time_percent: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, institutionMessages.extraTime)
      .transform(Number)
      .pipe(AdminUserPatchSchema.shape.extra_time_percent.unwrap()),
  }),
  undefined,
  { raw: true },
) as Resolver<LearnerValues>

/**
 * The pasted quiz must be JSON; the quiz itself is checked by the server, whose answer lists every problem by
 * path after sanitising the SVGs and with the clock that decides a default start.
 */
export const createResolver = zodResolver(
  z.object({
    json: z.string().transform((text, context) => {
      try {
        return JSON.parse(text) as unknown
      } catch {
        context.addIssue({ code: 'custom', message: uiMessages.invalidJson })
        return z.NEVER
      }
    }),
  }),
)

/** The contracts' (and the forms' own) English texts we show in the admin's language; others are shown as sent. */
const keys = {
  [adminMessages.required]: 'field_messages.required',
  [adminMessages.notNull]: 'field_messages.not_null',
  [adminMessages.blank]: 'field_messages.blank',
  [adminMessages.timestamp]: 'field_messages.timestamp',
  [adminMessages.endAfterStart]: 'field_messages.end_after_start',
  [adminMessages.startBeforeEnd]: 'field_messages.start_before_end',
  [adminMessages.optionCount]: 'field_messages.option_count',
  [adminMessages.exactlyOneCorrect]: 'field_messages.exactly_one_correct',
  [adminMessages.svgTooLarge]: 'field_messages.svg_too_large',
  [pictureMessages.notAPicture]: 'field_messages.picture_not_a_picture',
  [pictureMessages.tooLarge]: 'field_messages.picture_too_large',
  [pictureMessages.tooManyPixels]: 'field_messages.picture_too_many_pixels',
  [pictureMessages.tooCostly]: 'field_messages.picture_too_costly',
  [pictureMessages.unknown]: 'field_messages.picture_unknown',
  [pictureMessages.svgAndPicture]: 'field_messages.picture_and_svg',
  [uiMessages.noPastedPicture]: 'field_messages.picture_paste_empty',
  [adminMessages.questionCount]: 'field_messages.question_count',
  [adminMessages.duration]: 'field_messages.duration',
  [adminMessages.attempts]: 'field_messages.attempts',
  [liveMessages.joinMinutes]: 'field_messages.live_join_minutes',
  [liveMessages.startsBeforeQuiz]: 'field_messages.live_starts_before_quiz',
  [liveMessages.endsBeforeCommonEnd]: 'field_messages.live_ends_before_common_end',
  [liveMessages.joinAfterEnd]: 'field_messages.live_join_after_end',
  [liveMessages.attemptsRunning]: 'field_messages.live_attempts_running',
  [planMessages.wholePaisa]: 'field_messages.whole_paisa',
  [planMessages.minPrice]: 'field_messages.min_price',
  [planMessages.wholeDays]: 'field_messages.whole_days',
  [planMessages.days]: 'field_messages.plan_days',
  [uiMessages.price]: 'plans.bad_price',
  [uiMessages.invalidJson]: 'create.invalid_json',
} as const

const TOO_LONG = /^Ensure this field has no more than (\d+) characters\.$/

/** A form message in the admin's language (AdminForm's `messages`). */
export function useAdminMessages() {
  const { t, i18n } = useTranslation('admin')
  return (text: string): string => {
    const key = (keys as Record<string, (typeof keys)[keyof typeof keys]>)[text]
    if (key) return t(key)
    const tooLong = TOO_LONG.exec(text)
    if (tooLong) return t('field_messages.too_long', { max: formatNumber(Number(tooLong[1]), i18n.language) })
    return text
  }
}

/**
 * The server's paths of one English/Nepali pair ("title", "options.2.text") and the fields that show them: messages
 * about the pair as a whole and about `.en` under English (the required one), those about `.ne` under Nepali.
 */
export const pairFields = (path: string): Record<string, string> => ({
  [path]: `${path}.en`,
  [`${path}.en`]: `${path}.en`,
  [`${path}.ne`]: `${path}.ne`,
})

interface BilingualFieldsProps {
  labels: { en: string; ne: string }
  /** The `{en, ne}` pair's name in the form, which is also its path in the request ("title", "options.2.text"). */
  name: string
  /** Textareas of this many rows; inputs when not given. */
  rows?: number
  /** Shown under each field (the question form's maths preview), given the field's name and language. */
  preview?: (field: string, lang: 'en' | 'ne') => ReactNode
}

/** One text in English and Nepali, side by side where the layout has room: the shape of every text a quiz holds. */
export function BilingualFields({ labels, name, rows, preview }: BilingualFieldsProps) {
  const lines = rows === undefined ? {} : { multiline: true, rows }
  return (
    <>
      <TextField name={`${name}.en`} label={labels.en} {...lines} lang="en">
        {preview?.(`${name}.en`, 'en')}
      </TextField>
      <TextField name={`${name}.ne`} label={labels.ne} {...lines} lang="ne">
        {preview?.(`${name}.ne`, 'ne')}
      </TextField>
    </>
  )
}

interface AdminFormProps<T extends FieldValues, Output> {
  form: UseFormReturn<T, unknown, Output>
  /** `form.handleSubmit(save, refused)`. */
  onSubmit: FormEventHandler<HTMLFormElement>
  /** Shows the form's messages (the contracts' English texts) in the reader's language. */
  messages: (text: string) => string
  /**
   * Something new each time the server refuses a save: the keyboard then goes to the first field with a message,
   * which may be far above the Save button. (A refusal by the form's own checks is focused by react-hook-form.)
   */
  refusal: unknown
  className?: string
  /** The browser's own check of `required` fields, for a form whose only rule is that. */
  nativeValidation?: boolean
  children: ReactNode
}

/** A react-hook-form form whose fields (TextField, CheckboxField, BilingualFields...) find it by context. */
export function AdminForm<T extends FieldValues, Output = T>({
  form,
  onSubmit,
  messages,
  refusal,
  className,
  nativeValidation,
  children,
}: AdminFormProps<T, Output>) {
  const element = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (refusal) element.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [refusal])
  return (
    <FormProvider {...form}>
      <FieldMessages.Provider value={messages}>
        <form ref={element} className={className} onSubmit={onSubmit} noValidate={!nativeValidation}>
          {children}
        </form>
      </FieldMessages.Provider>
    </FormProvider>
  )
}
