import { isValidPhone } from '@quiz/contracts/rules/identity'
import { useQuery } from '@tanstack/react-query'
import type { FormState } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { authQueries, type AvailabilityKind } from './availability'
import type { FieldMessage } from './auth-messages'
import { useDebouncedValue } from './use-debounced-value'
import { passwordProblem, usernameProblem } from './validation'

// The registration details as they are typed: each field's message and whether its username or phone is free.

/** SPEC.md: username and phone availability are checked 500 ms after typing stops. */
export const AVAILABILITY_DEBOUNCE_MS = 500

export type DetailField = 'username' | 'phone' | 'password' | 'password2'
export const detailFields: DetailField[] = ['username', 'phone', 'password', 'password2']
export const fieldIds: Record<DetailField, string> = {
  username: 'register-username',
  phone: 'register-phone',
  password: 'register-password',
  password2: 'register-password2',
}
/** The server names fields as API.md does. */
export const fromServerField: Partial<Record<string, DetailField>> = {
  username: 'username',
  phone_number: 'phone',
  password: 'password',
  password2: 'password2',
}

type Availability = 'idle' | 'checking' | 'taken' | 'available'

/**
 * Whether `value` is taken, asked once it has stayed unchanged for 500 ms. The query key follows the live
 * value, so an answer for an older value is never shown, and a check run on submit shows at once.
 */
function useAvailability(kind: AvailabilityKind, value: string, enabled: boolean): Availability {
  const settled = useDebouncedValue(value, AVAILABILITY_DEBOUNCE_MS) === value
  const query = useQuery({ ...authQueries.exists(kind, value), enabled: enabled && settled })
  if (!enabled) return 'idle'
  if (query.data !== undefined) return query.data ? 'taken' : 'available'
  return query.fetchStatus === 'fetching' ? 'checking' : 'idle'
}

export type RegisterValues = Record<DetailField, string>

/** The live checks of the details step, from the values as typed and the form's state. */
export function useDetailChecks(
  values: RegisterValues,
  { errors, touchedFields, isSubmitted, isSubmitting }: FormState<RegisterValues>,
) {
  const { t } = useTranslation('auth')
  const username = values.username.trim()
  const { phone, password, password2 } = values
  const usernameRule = username ? usernameProblem(username) : null
  const usernameSettled = useDebouncedValue(username, AVAILABILITY_DEBOUNCE_MS) === username
  const phoneSettled = useDebouncedValue(phone, AVAILABILITY_DEBOUNCE_MS) === phone
  const phoneValid = isValidPhone(phone)
  const usernameStatus = useAvailability('username', username, username !== '' && !usernameRule)
  const phoneStatus = useAvailability('phone', phone, phoneValid)

  /**
   * A message the server or the last submit gave the field stays until the field is edited; otherwise the field
   * speaks for its value as typed: after blur or a submit, or once the value has settled for 500 ms.
   */
  function errorOf(field: DetailField): FieldMessage | string | null {
    const given = errors[field]?.message
    if (given) return given
    const shown = isSubmitted || isSubmitting || Boolean(touchedFields[field])
    const value = values[field]
    if (!value.trim()) return shown ? { key: 'required' } : null
    switch (field) {
      case 'username':
        if (usernameRule) return shown || usernameSettled ? { key: usernameRule } : null
        return usernameStatus === 'taken' ? { key: 'register.username_taken' } : null
      case 'phone':
        if (!phoneValid) return shown || phoneSettled ? { key: 'invalid_phone' } : null
        return phoneStatus === 'taken' ? { key: 'register.phone_taken' } : null
      case 'password': {
        const problem = passwordProblem(password, username)
        return problem && shown ? { key: problem } : null
      }
      case 'password2':
        return password2 !== password && (shown || password2.length >= password.length)
          ? { key: 'passwords_mismatch' }
          : null
    }
  }

  const availabilityStatus = (
    state: Availability,
    available: 'register.username_available' | 'register.phone_available',
  ) =>
    state === 'checking'
      ? { tone: 'info' as const, text: t('register.checking') }
      : state === 'available'
        ? { tone: 'ok' as const, text: t(available) }
        : null

  return { username, usernameRule, phoneValid, usernameStatus, phoneStatus, errorOf, availabilityStatus }
}
