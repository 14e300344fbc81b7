// Request and response schemas of the users feature (API.md "Users, OTP and registration").
import { z } from 'zod'
import { requiredString } from './auth'
import { LanguageSchema, PhoneNumberSchema } from './common'
import { USERNAME_MAX_LENGTH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from './rules/identity'
import { isAllDigits, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './rules/password'

export const usersMessages = {
  usernameLength: 'Username must be 3 to 30 characters long.',
  usernameCharacters: 'Username may contain only letters, digits, ".", "_" and "-".',
  usernameTaken: 'A user with that username already exists.',
  phoneTaken: 'Phone number is already registered.',
  phoneNotRegistered: 'No account is registered with this phone number.',
  passwordTooShort: 'This password is too short. It must contain at least 8 characters.',
  passwordNumeric: 'This password is entirely numeric.',
  passwordCommon: 'This password is too common.',
  passwordSimilar: 'The password is too similar to the username.',
  passwordMismatch: 'Passwords do not match.',
  otpSent: 'OTP sent to your phone.',
  otpResendWait: 'Please wait before requesting another code.',
  otpHourlyCap: 'Too many codes were requested for this phone number. Please try again later.',
  smsFailed: 'We could not send the SMS right now. Please try again in a few minutes.',
  passwordReset: 'Your password has been reset. Please log in.',
  invalidEmail: 'Enter a valid email address.',
  wrongCurrentPassword: 'Your current password is not correct.',
  passwordChanged: 'Your password has been changed. Your other logins have been logged out.',
} as const

/** 3 to 30 letters, digits, `.`, `_` or `-`; compared case-insensitively by the server. */
export const UsernameSchema = requiredString()
  .trim()
  .min(USERNAME_MIN_LENGTH, usersMessages.usernameLength)
  .max(USERNAME_MAX_LENGTH, usersMessages.usernameLength)
  .regex(USERNAME_PATTERN, usersMessages.usernameCharacters)

/**
 * The shape rules of a new password (rules.ts); the server also refuses common passwords and ones similar to the
 * username.
 */
export const NewPasswordSchema = requiredString()
  .min(PASSWORD_MIN_LENGTH, usersMessages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, `This password is too long. It must contain at most ${PASSWORD_MAX_LENGTH} characters.`)
  .refine((password) => !isAllDigits(password), usersMessages.passwordNumeric)

export const OtpPurposeSchema = z.enum(['login', 'register', 'reset'])
export type OtpPurpose = z.infer<typeof OtpPurposeSchema>

/** Any short string: a code of the wrong form is simply a wrong code (and counts as a try). */
export const OtpInputSchema = requiredString().trim().min(1, 'This field may not be blank.').max(16)

export const CheckUsernameRequestSchema = z.object({ username: requiredString().trim().max(150) })
export const CheckPhoneRequestSchema = z.object({ phone_number: PhoneNumberSchema })
export const ExistsResponseSchema = z.object({ exists: z.boolean() })

/** `language`: the screen's, for the SMS; without it a registered learner's preference, else English. */
export const OtpSendRequestSchema = z.object({
  phone_number: PhoneNumberSchema,
  purpose: OtpPurposeSchema,
  language: LanguageSchema.optional(),
})
export type OtpSendRequest = z.infer<typeof OtpSendRequestSchema>
export const OtpSendResponseSchema = z.object({ detail: z.string(), expires_in: z.number(), resend_in: z.number() })
export type OtpSendResponse = z.infer<typeof OtpSendResponseSchema>

export const OtpVerifyRequestSchema = z.object({
  phone_number: PhoneNumberSchema,
  otp: OtpInputSchema,
  purpose: OtpPurposeSchema,
})
export type OtpVerifyRequest = z.infer<typeof OtpVerifyRequestSchema>
export const VerifiedResponseSchema = z.object({ verified: z.literal(true) })
/** `login` answers a token pair; `register` and `reset` answer `{verified: true}`. */
export const OtpVerifyResponseSchema = z.union([
  z.object({ access: z.string(), refresh: z.string() }),
  VerifiedResponseSchema,
])

/** The refinement that puts a password mismatch on `password2`; web forms with a confirm field reuse it. */
export const passwordsMatch = {
  message: usersMessages.passwordMismatch,
  path: ['password2'],
  // Runs even when another field failed, so every field problem is reported at once.
  when: (payload: { value: unknown }) => {
    const value = payload.value as { password?: unknown; password2?: unknown } | undefined
    return typeof value?.password === 'string' && typeof value?.password2 === 'string'
  },
}

export const RegisterRequestSchema = z
  .object({
    username: UsernameSchema,
    password: NewPasswordSchema,
    password2: requiredString(),
    phone_number: PhoneNumberSchema,
  })
  .refine((body) => body.password === body.password2, passwordsMatch)
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>
export const RegisteredUserSchema = z.object({ id: z.number().int(), username: z.string(), phone_number: z.string() })
export type RegisteredUser = z.infer<typeof RegisteredUserSchema>

export const PasswordResetRequestSchema = z
  .object({
    phone_number: PhoneNumberSchema,
    otp: OtpInputSchema,
    password: NewPasswordSchema,
    password2: z.string({ error: 'Must be a string.' }).optional(),
  })
  .refine((body) => body.password2 === undefined || body.password === body.password2, passwordsMatch)
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>

export const ProfileSchema = z.object({
  username: z.string(),
  phone_number: z.string(),
  full_name: z.string(),
  email: z.string(),
  preferred_language: LanguageSchema,
  /** A path on this server that an `<img>` loads without a token, or null. */
  profile_picture: z.string().nullable(),
  /** Live-mock reminders by SMS too (default false). */
  sms_reminders: z.boolean(),
  /** The name on leaderboards; false shows "Learner" (default true). */
  show_on_leaderboards: z.boolean(),
  /** "HH:MM" Nepal time: a push when the day's daily set is not yet done; null for none. */
  daily_reminder: z.string().nullable(),
  /** The learner uses a screen reader: papers leave out questions that need sight (API.md "Blind learners"). */
  screen_reader: z.boolean(),
})
export type Profile = z.infer<typeof ProfileSchema>

/** The text fields of the multipart PUT /api/users/profile/; each is optional (absent fields stay as they are). */
export const ProfileUpdateFieldsSchema = z.object({
  full_name: z.string().trim().max(150, 'Ensure this field has no more than 150 characters.').optional(),
  email: z
    .string()
    .trim()
    .max(254, 'Ensure this field has no more than 254 characters.')
    .refine((email) => email === '' || z.email().safeParse(email).success, usersMessages.invalidEmail)
    .optional(),
  preferred_language: z.enum(['en', 'ne'], { error: 'Choose en or ne.' }).optional(),
  remove_picture: z.enum(['true', 'false', '1', '0', 'on'], { error: 'Send true or false.' }).optional(),
  sms_reminders: z.enum(['true', 'false', '1', '0', 'on'], { error: 'Send true or false.' }).optional(),
  show_on_leaderboards: z.enum(['true', 'false', '1', '0', 'on'], { error: 'Send true or false.' }).optional(),
  // A form sends no null: an empty value (or "null") turns the reminder off.
  daily_reminder: z
    .string()
    .regex(/^(|null|([01]\d|2[0-3]):[0-5]\d)$/, 'Send a time as HH:MM, or nothing for no reminder.')
    .optional(),
  screen_reader: z.enum(['true', 'false', '1', '0', 'on'], { error: 'Send true or false.' }).optional(),
})
export type ProfileUpdateFields = z.infer<typeof ProfileUpdateFieldsSchema>

/** POST /api/users/password/: a signed-in learner changes their password (docs/decisions/018). */
export const PasswordChangeRequestSchema = z
  .object({
    current_password: requiredString().min(1, 'This field may not be blank.').max(256),
    password: NewPasswordSchema,
    password2: requiredString(),
  })
  .refine((body) => body.password === body.password2, passwordsMatch)
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequestSchema>
