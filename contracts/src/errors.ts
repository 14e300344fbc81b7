import { z } from 'zod'

export const ErrorCodeSchema = z.enum([
  'validation_error',
  'invalid_otp',
  'phone_not_verified',
  'not_authenticated',
  'invalid_credentials',
  'permission_denied',
  'no_attempts_left',
  'paid_access_required',
  'not_found',
  'conflict',
  'attempt_closed',
  'upload_closed',
  'too_many_pages',
  'question_in_use',
  'paper_unavailable',
  'paper_empty',
  'paper_not_printable',
  'sheet_unreadable',
  'wrong_sitting',
  'sheet_already_scanned',
  'page_unreadable',
  'page_already_scanned',
  'import_unreadable',
  'challenge_closed',
  'challenge_not_open',
  'rubric_changed',
  'claimed_by_other',
  'answer_released',
  'live_not_started',
  'not_registered',
  'paper_not_offered',
  'practice_not_open',
  'section_closed',
  'section_not_open',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'sms_failed',
  'server_error',
  'service_unavailable',
])
export type ErrorCode = z.infer<typeof ErrorCodeSchema>

/** The one error body of API.md. `errors` is keyed by dotted field path (`questions.3.options`). */
export const ErrorBodySchema = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
})
export type ErrorBody = z.infer<typeof ErrorBodySchema>
