/** Client-side checks that mirror the server's shape rules (API.md), so a learner hears about them before an OTP is spent. */
export const PHONE_PATTERN = /^\d{10}$/
const USERNAME_CHARACTERS = /^[A-Za-z0-9._-]+$/

export const isValidPhone = (phone: string) => PHONE_PATTERN.test(phone.trim())

export type UsernameProblem = 'server.username_length' | 'server.username_characters'
export function usernameProblem(username: string): UsernameProblem | null {
  const value = username.trim()
  if (value.length < 3 || value.length > 30) return 'server.username_length'
  if (!USERNAME_CHARACTERS.test(value)) return 'server.username_characters'
  return null
}

export type PasswordProblem = 'server.password_short' | 'server.password_numeric' | 'server.password_similar'
/** The common-password list lives only on the server. */
export function passwordProblem(password: string, username = ''): PasswordProblem | null {
  if (password.length < 8) return 'server.password_short'
  if (/^\d+$/.test(password)) return 'server.password_numeric'
  const name = username.trim().toLowerCase()
  const lower = password.toLowerCase()
  if (name.length >= 3 && (lower.includes(name) || name.includes(lower))) return 'server.password_similar'
  return null
}
