// The contracts' texts that the auth namespace (part of the shell, always loaded) words in the learner's language:
// the sign-in screens and the profile's password form show the server's and their own checks' texts through it.
import type { ParseKeys } from 'i18next'
import { useTranslation } from 'react-i18next'

export type AuthKey = ParseKeys<'auth'>

/** A message for a field: one of ours (re-translated when the language changes) or a server text we do not know. */
export type FieldMessage = { key: AuthKey } | { text: string }

/**
 * The contracts' texts for an empty field and a bad phone number. The login screen's forms check with these
 * (RHF's built-in rules: the first screen ships without zod), so they read like the server's own answers.
 */
export const formTexts = {
  required: 'This field is required.',
  invalidPhone: 'Please enter a valid 10-digit phone number.',
} as const

/** The server's texts (contracts' messages) that we show in the learner's language. */
const knownServerTexts: Record<string, AuthKey> = {
  [formTexts.required]: 'required',
  'This field may not be blank.': 'required',
  [formTexts.invalidPhone]: 'invalid_phone',
  'Passwords do not match.': 'passwords_mismatch',
  'Username must be 3 to 30 characters long.': 'server.username_length',
  'Username may contain only letters, digits, ".", "_" and "-".': 'server.username_characters',
  'A user with that username already exists.': 'server.username_taken',
  'Phone number is already registered.': 'server.phone_taken',
  'This password is too short. It must contain at least 8 characters.': 'server.password_short',
  'This password is entirely numeric.': 'server.password_numeric',
  'This password is too common.': 'server.password_common',
  'The password is too similar to the username.': 'server.password_similar',
  'Phone number has not been verified.': 'server.phone_not_verified',
  'Your current password is not correct.': 'server.wrong_current_password',
}

export function serverMessage(text: string): FieldMessage {
  const key = knownServerTexts[text]
  return key ? { key } : { text }
}

/** A field message in the learner's language; a form's own check speaks the contracts' texts, as the server does. */
export function useMessageText() {
  const { t } = useTranslation('auth')
  return (message: FieldMessage | string | null | undefined) => {
    const known = typeof message === 'string' ? serverMessage(message) : message
    return !known ? '' : 'key' in known ? t(known.key) : known.text
  }
}
