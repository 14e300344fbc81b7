import type { WrittenPage } from '@quiz/contracts'
import { ApiError } from '../../../api/api-error'

// How the written queue talks to the server, and how it reads the server's refusals.

export interface WrittenTransport {
  putText: (questionId: number, text: string) => Promise<unknown>
  uploadPage: (questionId: number, image: Blob) => Promise<WrittenPage>
  deletePage: (questionId: number, pageId: number) => Promise<unknown>
  orderPages: (questionId: number, order: number[]) => Promise<{ pages: WrittenPage[] }>
}

/** Why the server would not take a page; the screen says each in words. */
export type PageRefusal = 'too_large' | 'too_many_pages' | 'quota_full' | 'not_a_photo' | 'upload_closed' | 'other'

/** The refusal a page's upload met, or null when the error says nothing of the page. */
export function refusalOf(error: unknown): PageRefusal | null {
  if (!(error instanceof ApiError)) return null
  if (error.code === 'upload_closed') return 'upload_closed'
  if (error.code === 'too_many_pages') return 'too_many_pages'
  if (error.code === 'upload_quota_exceeded') return 'quota_full'
  if (error.status === 413) return 'too_large'
  if (error.status === 415 || error.status === 400) return 'not_a_photo'
  return null
}

/** Worth trying again: no answer, a server failure, or no session (a learner signs in again; the photo waits). */
export const isTransient = (error: unknown) =>
  !(error instanceof ApiError) ||
  error.isNetworkError ||
  error.status === 401 ||
  error.status === 429 ||
  error.status >= 500
