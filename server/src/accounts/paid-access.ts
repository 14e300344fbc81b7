import { messages } from '@quiz/contracts'
import { PermissionDenied } from '../http/errors'

export const mayTakePaidQuizzes = (user: { is_admin: number; paid_access_until: number | null }, now: number) =>
  user.is_admin === 1 || (user.paid_access_until !== null && user.paid_access_until > now)

export const paidAccessRequired = () => new PermissionDenied(messages.paidAccessRequired, 'paid_access_required')
