import { dictionary } from '@zxcvbn-ts/language-common'
import { usersMessages } from '@quiz/contracts'

// The 49,233 most common passwords of zxcvbn's "passwords-common" dictionary (MIT licence, Dan Wheeler,
// Dropbox and the zxcvbn-ts authors), shipped in the @zxcvbn-ts/language-common package. Built on first use.
let commonPasswords: Set<string> | undefined
const getCommonPasswords = () =>
  (commonPasswords ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())))

export const commonPasswordCount = () => getCommonPasswords().size

export function isCommonPassword(password: string): boolean {
  return getCommonPasswords().has(password.trim().toLowerCase())
}

/** API.md: "too similar" means either contains the other, ignoring case. */
export function isTooSimilar(password: string, username: string): boolean {
  const p = password.toLowerCase()
  const u = username.trim().toLowerCase()
  return u.length > 0 && (p.includes(u) || u.includes(p))
}

/**
 * The password rules that need more than the request's shape (length and "not all digits" are in the
 * contracts schema, so the web form shares them). Returns the messages for the `password` field.
 */
export function passwordProblems(password: string, username: string | undefined): string[] {
  const problems: string[] = []
  if (password.length < 8) problems.push(usersMessages.passwordTooShort)
  if (/^\d+$/.test(password)) problems.push(usersMessages.passwordNumeric)
  if (username !== undefined && isTooSimilar(password, username)) problems.push(usersMessages.passwordSimilar)
  if (isCommonPassword(password)) problems.push(usersMessages.passwordCommon)
  return problems
}
