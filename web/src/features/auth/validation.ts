import { usernameProblem as sharedUsernameProblem } from '@quiz/contracts/rules/identity'
import { passwordProblems, type PasswordProblem as SharedPasswordProblem } from '@quiz/contracts/rules/password'

/** The shared shape rules (API.md) as the forms' texts, so a learner hears about them before an OTP is spent. */
export type UsernameProblem = 'server.username_length' | 'server.username_characters'
export function usernameProblem(username: string): UsernameProblem | null {
  const problem = sharedUsernameProblem(username)
  return problem ? `server.username_${problem}` : null
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
