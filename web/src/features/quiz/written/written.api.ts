import type { WrittenPage } from '@quiz/contracts'
import { api } from '../../../api/client'

// API.md "Written answers marked by rubric", answering online. Only the contracts' types cross into the bundle.
const base = (attemptId: number, questionId: number) => `/attempts/${attemptId}/written/${questionId}`

/** Photos go over slow connections: a page may take longer than a JSON save to arrive. */
const PAGE_UPLOAD_TIMEOUT_MS = 120_000

export function putWrittenText(attemptId: number, questionId: number, text: string) {
  return api.put<{ word_count: number }>(`${base(attemptId, questionId)}/text/`, { text })
}

/** The server keeps a page at most this long on its long side (API.md): sending more only costs the learner data. */
export const PAGE_LONG_SIDE = 2_200

/** 201 a new page, 200 the page the same photo already made. */
export function uploadWrittenPage(attemptId: number, questionId: number, image: Blob) {
  const formData = new FormData()
  formData.append('image', image, 'page.jpg')
  return api.post<WrittenPage>(`${base(attemptId, questionId)}/pages/`, undefined, {
    formData,
    timeoutMs: PAGE_UPLOAD_TIMEOUT_MS,
  })
}

export function deleteWrittenPage(attemptId: number, questionId: number, pageId: number) {
  return api.delete<void>(`${base(attemptId, questionId)}/pages/${pageId}/`)
}

export function orderWrittenPages(attemptId: number, questionId: number, order: number[]) {
  return api.put<{ pages: WrittenPage[] }>(`${base(attemptId, questionId)}/pages/`, { order })
}
