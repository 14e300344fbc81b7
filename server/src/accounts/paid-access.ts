import { messages } from '@quiz/contracts'
import { PermissionDenied } from '../http/errors'

/** `is_admin`: the account's role in the quiz's institute (null: no membership there). */
export const mayTakePaidQuizzes = (user: { is_admin: number | null; paid_access_until: number | null }, now: number) =>
  user.is_admin === 1 || (user.paid_access_until !== null && user.paid_access_until > now)

export const paidAccessRequired = () => new PermissionDenied(messages.paidAccessRequired, 'paid_access_required')
