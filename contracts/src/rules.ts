// Rules the server enforces and the web app checks before asking, written once without zod: the first screen
// imports this file alone (`@quiz/contracts/rules`), and the zod schemas of the contracts are built on it.
import type { QuizListItem } from './quizzes'

export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 256
/** A username shorter than this is refused anyway, so it is not yet a name a password could resemble. */
export const USERNAME_MIN_LENGTH = 3
export const USERNAME_MAX_LENGTH = 30

export const isAllDigits = (password: string) => /^\d+$/.test(password)

/** API.md: "too similar" means the username appears in the password or the password in the username, ignoring case. */
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

/** What a learner's Start button does for a quiz of the list (WEB.md). */
export type StartState = 'start' | 'resume' | 'no_attempts' | 'paid_only'

/**
 * `can_start` is the server's answer (API.md); when it is false the reason is read from the rest: an attempt in
 * progress or attempts left mean the paid-tier check refused it.
 */
export function startState(
  quiz: Pick<QuizListItem, 'can_start' | 'has_attempt_in_progress' | 'remaining_attempts' | 'is_paid_tier'>,
): StartState {
  if (quiz.can_start) return quiz.has_attempt_in_progress ? 'resume' : 'start'
  if (quiz.is_paid_tier && (quiz.has_attempt_in_progress || quiz.remaining_attempts > 0)) return 'paid_only'
  return 'no_attempts'
}
