import type { ErrorBody } from '@quiz/contracts'

/** A failed API call. `status` 0 means the request never got an answer (offline, timeout). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(detail)
    this.name = 'ApiError'
  }

  static fromBody(status: number, body: Partial<ErrorBody> | undefined) {
    return new ApiError(
      status,
      body?.code ?? 'unknown_error',
      body?.detail ?? `Request failed (${status})`,
      body?.errors,
    )
  }

  get isNetworkError() {
    return this.status === 0
  }
}
