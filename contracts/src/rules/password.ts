// The password rules, written once without zod: the web forms import this file alone
// (`@quiz/contracts/rules/password`), and the contracts' zod schemas and the server's checks are built on it.
import { USERNAME_MIN_LENGTH } from './identity'

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 256

export const isAllDigits = (password: string) => /^\d+$/.test(password)

/**
 * API.md: "too similar" means the username appears in the password or the password in the username, ignoring case.
 * A username shorter than the shortest allowed is refused anyway, so it is not yet a name a password could resemble.
 */
export function isTooSimilar(password: string, username: string): boolean {
  const name = username.trim().toLowerCase()
  const lower = password.toLowerCase()
  return name.length >= USERNAME_MIN_LENGTH && (lower.includes(name) || name.includes(lower))
}

/** What is wrong with a new password, as far as it can be told without the server's common-password list. */
export type PasswordProblem = 'too_short' | 'numeric' | 'similar'

/** Every problem, in the order the server reports them; `username` absent: the similarity is not asked. */
export function passwordProblems(password: string, username?: string): PasswordProblem[] {
  const problems: PasswordProblem[] = []
  if (password.length < PASSWORD_MIN_LENGTH) problems.push('too_short')
  if (isAllDigits(password)) problems.push('numeric')
  if (username !== undefined && isTooSimilar(password, username)) problems.push('similar')
  return problems
}
