import type { WrittenPage } from '@quiz/contracts'
import { vi } from 'vitest'
import { ApiError } from '../../../api/api-error'
import type { PageBlobStore, QueuedPageBlob } from './page-store'
import { countWords } from './word-count'
import type { WrittenTransport } from './written-transport'

// Stand-ins for the written queue's transport and photo store in unit tests of the queue and the exam screen.
export const networkError = () => new ApiError(0, 'network_error', 'Failed to fetch')

/** The answering routes as the server answers them (API.md): pages numbered in order, the same photo one page. */
export function fakeWrittenServer() {
  const texts = new Map<number, string>()
  const pages = new Map<number, WrittenPage[]>()
  const photos = new Map<number, Blob>()
  let nextId = 100
  let failWith: (() => unknown) | null = null
  const fail = () => {
    if (failWith) throw failWith()
  }
  const transport: WrittenTransport = {
    putText: vi.fn(async (questionId: number, text: string) => {
      fail()
      texts.set(questionId, text)
      return { word_count: countWords(text) }
    }),
    uploadPage: vi.fn(async (questionId: number, image: Blob) => {
      fail()
      const list = pages.get(questionId) ?? []
      const same = list.find((page) => photos.get(page.id) === image)
      if (same) return same
      const page = {
        id: nextId++,
        number: list.length + 1,
        url: `/api/written-pages/${nextId}/`,
        phone_url: `/api/written-pages/${nextId}/?size=phone`,
        width: 10,
        height: 10,
      }
      photos.set(page.id, image)
      pages.set(questionId, [...list, page])
      return page
    }),
    deletePage: vi.fn(async (questionId: number, pageId: number) => {
      fail()
      pages.set(
        questionId,
        (pages.get(questionId) ?? []).filter((page) => page.id !== pageId),
      )
    }),
    orderPages: vi.fn(async (questionId: number, order: number[]) => {
      fail()
      const list = pages.get(questionId) ?? []
      const ordered = order.map((id, index) => ({ ...list.find((page) => page.id === id)!, number: index + 1 }))
      pages.set(questionId, ordered)
      return { pages: ordered }
    }),
  }
  return {
    transport,
    texts,
    photoOrder: (questionId: number) => (pages.get(questionId) ?? []).map((page) => photos.get(page.id)),
    failWith(make: (() => unknown) | null) {
      failWith = make
    },
  }
}

export function memoryPageStore(): PageBlobStore & { held: Map<string, QueuedPageBlob> } {
  const held = new Map<string, QueuedPageBlob>()
  return {
    held,
    put: async (key, page) => void held.set(key, page),
    get: async (key) => held.get(key),
    remove: async (key) => void held.delete(key),
    keys: async () => [...held.keys()],
  }
}
