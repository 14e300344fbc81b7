import { ApiError } from '../../../api/api-error'

/** The national mocks' refusals (API.md "National mocks") as keys of the platform namespace's texts. */
export type NationalErrorKey =
  | 'national.errors.national_mock_locked'
  | 'national.errors.national_mock_started'
  | 'national.errors.not_found'
  | 'national.errors.other'

export function nationalErrorKey(error: unknown): NationalErrorKey {
  if (error instanceof ApiError) {
    if (error.code === 'national_mock_locked') return 'national.errors.national_mock_locked'
    if (error.code === 'national_mock_started') return 'national.errors.national_mock_started'
    if (error.status === 404) return 'national.errors.not_found'
  }
  return 'national.errors.other'
}
