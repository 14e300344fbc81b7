import { z } from 'zod'
import { bilingualInput, BilingualSchema } from './common'
import { LogoSchema } from './institutes'

// API.md "Institutes: many on one deployment", "Payments and SMS": an institute's own settings, by its admins.

export const instituteSettingsMessages = {
  colour: 'A colour is #rrggbb, such as #1f6feb.',
  smsSender: 'An SMS sender is 3 to 11 letters and digits, such as Pathshala (what the gateway shows as the sender).',
  secretBlank: 'A secret key may not be blank: send null to remove it.',
} as const

/** A colour as `#rrggbb`; stored lower-cased. */
export const ColourSchema = z
  .string()
  .trim()
  .regex(/^#[0-9a-fA-F]{6}$/, instituteSettingsMessages.colour)
  .transform((colour) => colour.toLowerCase())

/**
 * An SMS sender id: 3 to 11 ASCII letters and digits, the alphanumeric sender ids Nepal's gateways register
 * (GSM allows 11 characters; spaces and punctuation are refused by some operators, so none are taken).
 */
export const SmsSenderSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{3,11}$/, instituteSettingsMessages.smsSender)

/** What a secret reads back as: that it is set, never its value. */
export const SecretStateSchema = z.literal('set').nullable()

const publicField = z.string().trim().min(1, 'This field may not be blank.').max(200)
// "set" is what GET answers: a form that sends it back unchanged keeps the stored secret.
const secretField = z.string().trim().min(1, instituteSettingsMessages.secretBlank).max(500)

export const KhaltiSettingsSchema = z.object({ public_key: z.string().nullable(), secret_key: SecretStateSchema })
export const EsewaSettingsSchema = z.object({ merchant_code: z.string().nullable(), secret_key: SecretStateSchema })

/** `GET /api/admin/institute/settings/`. */
export const InstituteSettingsSchema = z.object({
  name: BilingualSchema,
  logo: LogoSchema.nullable(),
  colour: z.string(),
  sms_sender: z.string().nullable(),
  open_registration: z.boolean(),
  khalti: KhaltiSettingsSchema.nullable(),
  esewa: EsewaSettingsSchema.nullable(),
})
export type InstituteSettings = z.infer<typeof InstituteSettingsSchema>

/**
 * `PUT /api/admin/institute/settings/`: a field left out keeps its value, `null` removes it (a secret included);
 * `logo` takes a picture as question images do.
 */
export const InstituteSettingsUpdateSchema = z.object({
  name: bilingualInput(200).optional(),
  logo: z.object({ picture: z.string() }).nullable().optional(),
  colour: ColourSchema.optional(),
  sms_sender: SmsSenderSchema.nullable().optional(),
  open_registration: z.boolean().optional(),
  khalti: z
    .object({ public_key: publicField.nullable().optional(), secret_key: secretField.nullable().optional() })
    .nullable()
    .optional(),
  esewa: z
    .object({ merchant_code: publicField.nullable().optional(), secret_key: secretField.nullable().optional() })
    .nullable()
    .optional(),
})
export type InstituteSettingsUpdate = z.infer<typeof InstituteSettingsUpdateSchema>
