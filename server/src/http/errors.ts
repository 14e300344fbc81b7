import type { ErrorBody, ErrorCode } from '@quiz/contracts'
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { isDatabaseUnavailable } from '../db/errors'
import { FileStoreUnavailable } from '../files/file-store'

export type FieldErrors = Record<string, string[]>

/** Every refusal of API.md is one of these, thrown from anywhere below the route and written by one handler. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    detail: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    readonly extra?: Record<string, unknown>,
  ) {
    super(detail)
  }
}

export class ValidationFailed extends AppError {
  constructor(errors: FieldErrors, detail = 'Some fields are invalid.', code: ErrorCode = 'validation_error') {
    super(400, code, detail, errors)
  }
}
export class BadRequest extends AppError {
  constructor(detail: string, code: ErrorCode = 'validation_error') {
    super(400, code, detail)
  }
}
export class NotAuthenticated extends AppError {
  constructor(
    detail = 'Authentication credentials were not provided or are invalid.',
    code: ErrorCode = 'not_authenticated',
  ) {
    super(401, code, detail)
  }
}
export class PermissionDenied extends AppError {
  constructor(detail = 'You do not have permission to perform this action.', code: ErrorCode = 'permission_denied') {
    super(403, code, detail)
  }
}
export class NotFound extends AppError {
  constructor(detail = 'Not found.', code: ErrorCode = 'not_found') {
    super(404, code, detail)
  }
}
export class Conflict extends AppError {
  constructor(detail: string, code: ErrorCode = 'conflict', errors?: FieldErrors) {
    super(409, code, detail, errors)
  }
}
export class PayloadTooLarge extends AppError {
  constructor(detail = 'The request body is too large.') {
    super(413, 'payload_too_large', detail)
  }
}
export class RateLimited extends AppError {
  constructor(retryAfterSeconds: number, detail = 'Too many requests. Please try again later.') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds))
    super(429, 'rate_limited', detail, undefined, { 'retry-after': String(seconds) })
  }
}
export class ServiceUnavailable extends AppError {
  constructor(detail: string, code: ErrorCode = 'service_unavailable') {
    super(503, code, detail)
  }
}

export const databaseUnavailableDetail = 'The service is briefly unavailable. Please try again in a moment.'
const RETRY_SOON = { 'retry-after': '5' }

const toDottedPath = (instancePath: string) =>
  instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.') || 'non_field_errors'

interface ValidationEntry {
  instancePath?: string
  message?: string
  params?: { issue?: { path?: PropertyKey[]; message?: string } }
}

function fieldErrorsOf(validation: ValidationEntry[]): FieldErrors {
  const errors: FieldErrors = {}
  for (const entry of validation) {
    const issuePath = entry.params?.issue?.path
    const key = issuePath
      ? issuePath.map(String).join('.') || 'non_field_errors'
      : toDottedPath(entry.instancePath ?? '')
    ;(errors[key] ??= []).push(entry.message ?? 'Invalid value.')
  }
  return errors
}

const codeForStatus: Record<number, ErrorCode> = {
  400: 'validation_error',
  401: 'not_authenticated',
  403: 'permission_denied',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
}

function send(reply: FastifyReply, status: number, body: ErrorBody, headers?: Record<string, string>) {
  if (headers) reply.headers(headers)
  return reply.status(status).type('application/json; charset=utf-8').send(body)
}

export function registerErrorHandlers(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & { validation?: ValidationEntry[] }, request, reply) => {
    if (error instanceof AppError) {
      return send(
        reply,
        error.status,
        {
          ...error.extra,
          detail: error.message,
          code: error.code,
          ...(error.errors && { errors: error.errors }),
        },
        error.headers,
      )
    }
    // One file's store unreachable: that request only, and the client may try again soon (docs/decisions/105).
    if (error instanceof FileStoreUnavailable)
      return send(reply, 503, { detail: error.message, code: 'service_unavailable' }, RETRY_SOON)
    if (error.validation) {
      const scope = (error as { validationContext?: string }).validationContext
      const errors = fieldErrorsOf(error.validation)
      const detail =
        scope === 'params' || scope === 'querystring' ? 'Invalid URL parameters.' : 'Some fields are invalid.'
      if (scope === 'params') return send(reply, 404, { detail: 'Not found.', code: 'not_found' })
      return send(reply, 400, { detail, code: 'validation_error', errors })
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const detail =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413
          ? 'The request body is too large.'
          : error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415
            ? 'Unsupported content type. Send JSON.'
            : error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'The request body is empty.'
              : error.code?.startsWith('FST_ERR_CTP') || error instanceof SyntaxError
                ? 'Malformed request body.'
                : status === 429
                  ? 'Too many requests. Please try again later.'
                  : error.message
      return send(reply, status, { detail, code: codeForStatus[status] ?? 'validation_error' })
    }
    if (isDatabaseUnavailable(error)) {
      // Nothing was committed (the transaction failed with its connection): the client may simply send it again.
      request.log.warn({ err: error }, 'database unavailable')
      return send(reply, 503, { detail: databaseUnavailableDetail, code: 'service_unavailable' }, RETRY_SOON)
    }
    request.log.error({ err: error }, 'unhandled error')
    return send(reply, 500, { detail: 'Something went wrong on our side. Please try again.', code: 'server_error' })
  })

  app.setNotFoundHandler((request, reply) => send(reply, 404, { detail: 'Not found.', code: 'not_found' }))
}
