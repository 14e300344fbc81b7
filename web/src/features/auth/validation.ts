import {
  passwordProblems,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  type PasswordProblem as SharedPasswordProblem,
} from '@quiz/contracts/rules/password'

/** Client-side checks that mirror the server's shape rules (API.md), so a learner hears about them before an OTP is spent. */
export const PHONE_PATTERN = /^\d{10}$/
const USERNAME_CHARACTERS = /^[A-Za-z0-9._-]+$/

export const isValidPhone = (phone: string) => PHONE_PATTERN.test(phone.trim())

export type UsernameProblem = 'server.username_length' | 'server.username_characters'
export function usernameProblem(username: string): UsernameProblem | null {
  const value = username.trim()
  if (value.length < USERNAME_MIN_LENGTH || value.length > USERNAME_MAX_LENGTH) return 'server.username_length'
  if (!USERNAME_CHARACTERS.test(value)) return 'server.username_characters'
  return null
}

export type PasswordProblem = 'server.password_short' | 'server.password_numeric' | 'server.password_similar'
const passwordMessage = {
  too_short: 'server.password_short',
  numeric: 'server.password_numeric',
  similar: 'server.password_similar',
} as const satisfies Record<SharedPasswordProblem, PasswordProblem>

/** The first of the shared rules a password breaks; the common-password list lives only on the server. */
export function passwordProblem(password: string, username = ''): PasswordProblem | null {
  const [first] = passwordProblems(password, username)
  return first ? passwordMessage[first] : null
}
