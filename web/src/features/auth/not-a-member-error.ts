import { ApiError } from '../../api/api-error'

/** The server checked the credentials, and the account has no membership in this institute (API.md "Institutes"). */
export const isNotAMember = (error: unknown): error is ApiError =>
  error instanceof ApiError && error.code === 'not_a_member'
