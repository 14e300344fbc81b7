// Request and response schemas of the auth feature (API.md "Tokens and sessions").
import { z } from 'zod'

export const requiredMessage = 'This field is required.'

/** A string field that must be present: a missing one says so instead of "expected string, received undefined". */
export const requiredString = () =>
  z.string({ error: (issue) => (issue.input === undefined ? requiredMessage : 'Must be a string.') })

export const LoginRequestSchema = z.object({
  username: requiredString().trim().min(1, 'This field may not be blank.').max(150),
  password: requiredString().min(1, 'This field may not be blank.').max(256),
})
export type LoginRequest = z.infer<typeof LoginRequestSchema>

/** Body of POST /api/token/refresh/ and POST /api/token/revoke/. */
export const RefreshRequestSchema = z.object({
  refresh: requiredString().min(1, 'This field may not be blank.').max(4096),
})
export type RefreshRequest = z.infer<typeof RefreshRequestSchema>

export const authMessages = {
  invalidCredentials: 'Invalid username or password.',
  invalidRefreshToken: 'The refresh token is invalid or expired.',
  tooManyLoginFailures: 'Too many failed login attempts for this account. Please try again later.',
} as const

/** One login of the signed-in user (a refresh-token family), for "Active logins". */
export const LoginSessionSchema = z.object({
  /** Opaque; names the login in DELETE /api/auth/sessions/{id}/. */
  id: z.string(),
  /** A short readable name such as "Chrome on Android"; '' when it was not recorded. */
  device: z.string(),
  /** The client address of the login's latest use; '' when it was not recorded. */
  client_address: z.string(),
  created_at: z.string(),
  last_used_at: z.string(),
  /** The login this request's access token belongs to. */
  current: z.boolean(),
})
export type LoginSession = z.infer<typeof LoginSessionSchema>
export const LoginSessionListSchema = z.array(LoginSessionSchema)
export const SessionParamsSchema = z.object({ id: z.uuid() })
export const RevokedSessionsSchema = z.object({ revoked: z.number().int() })
export type RevokedSessions = z.infer<typeof RevokedSessionsSchema>
