import type { ErrorBody } from '@quiz/contracts'

function extraOf(body: Partial<ErrorBody> | undefined): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return {}
  const { detail: _detail, code: _code, errors: _errors, ...extra } = body as Record<string, unknown>
  return extra
}

/** A failed API call. `status` 0 means the request never got an answer (offline, timeout). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors?: Record<string, string[]>,
    /** The server's `Retry-After` in seconds (429, or 503 when it sheds load), when it sent one. */
    readonly retryAfterSeconds?: number,
    /** The body's fields beside detail, code and errors that a refusal's contract names (an import's `headings`). */
    readonly extra: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail)
    this.name = 'ApiError'
  }

  static fromBody(status: number, body: Partial<ErrorBody> | undefined, retryAfter?: string | null) {
    // Retry-After is seconds here (API.md); an HTTP date, which this server never sends, is ignored.
    const seconds = retryAfter != null && /^\d+$/.test(retryAfter.trim()) ? Number(retryAfter) : undefined
    return new ApiError(
      status,
      body?.code ?? 'unknown_error',
      body?.detail ?? `Request failed (${status})`,
      body?.errors,
      seconds,
      extraOf(body),
    )
  }

  /** Read a failed response: its error body and its Retry-After. */
  static async fromResponse(response: Response) {
    const body = await response.json().catch(() => undefined)
    return ApiError.fromBody(response.status, body, response.headers.get('retry-after'))
  }

  get isNetworkError() {
    return this.status === 0
  }
}
