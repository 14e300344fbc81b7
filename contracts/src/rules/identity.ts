// The phone number and username rules, written once without zod: the web forms import this file alone
// (`@quiz/contracts/rules/identity`), and the contracts' zod schemas are built on it.

/** A phone number of ten digits (API.md), as typed without the country code. */
export const PHONE_PATTERN = /^\d{10}$/

/** A phone number as the server reads it: spaces around it are not part of it. */
export const normalisePhone = (phone: string) => phone.trim()

export const isValidPhone = (phone: string) => PHONE_PATTERN.test(normalisePhone(phone))

/**
 * A phone number as a list or spreadsheet holds it ("+977 984-1000001", "977 9841000001", "9841000001"): its ten
 * digits, or null when it is not one (a roster line of digits that is not a phone number is a username).
 */
export function phoneInListing(text: string): string | null {
  const local = text.replace(/[\s().-]/g, '').replace(/^\+?977(?=\d{10}$)/, '')
  return PHONE_PATTERN.test(local) ? local : null
}

export const USERNAME_MIN_LENGTH = 3
export const USERNAME_MAX_LENGTH = 30
/** Letters, digits, `.`, `_` and `-`; the server compares usernames case-insensitively. */
export const USERNAME_PATTERN = /^[A-Za-z0-9._-]+$/

export type UsernameProblem = 'length' | 'characters'

/** What is wrong with a new username, as far as it can be told without asking whether it is taken. */
export function usernameProblem(username: string): UsernameProblem | null {
  const value = username.trim()
  if (value.length < USERNAME_MIN_LENGTH || value.length > USERNAME_MAX_LENGTH) return 'length'
  if (!USERNAME_PATTERN.test(value)) return 'characters'
  return null
}
