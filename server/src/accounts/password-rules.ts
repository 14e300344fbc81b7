import { dictionary } from '@zxcvbn-ts/language-common'
import { passwordProblems as sharedPasswordProblems, usersMessages, type PasswordProblem } from '@quiz/contracts'

export { isTooSimilar } from '@quiz/contracts'

// zxcvbn's 49,233 most common passwords (@zxcvbn-ts/language-common, MIT), built on first use.
let commonPasswords: Set<string> | undefined
const getCommonPasswords = () =>
  (commonPasswords ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase())))

export const commonPasswordCount = () => getCommonPasswords().size

export function isCommonPassword(password: string): boolean {
  return getCommonPasswords().has(password.trim().toLowerCase())
}

const messages: Record<PasswordProblem, string> = {
  too_short: usersMessages.passwordTooShort,
  numeric: usersMessages.passwordNumeric,
  similar: usersMessages.passwordSimilar,
}

// The common-password list is the server's alone; the other rules are contracts' rules.ts, which the web checks too.
export function passwordProblems(password: string, username: string | undefined): string[] {
  const problems = sharedPasswordProblems(password, username).map((problem) => messages[problem])
  if (isCommonPassword(password)) problems.push(usersMessages.passwordCommon)
  return problems
}
