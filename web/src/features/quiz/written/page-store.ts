import { createStore, del, get, keys, set, type UseStore } from 'idb-keyval'

/**
 * Page photos waiting to be sent, in IndexedDB (localStorage holds strings of 5 MB at most): a reload or a crash
 * while offline keeps them, and they go once the connection returns. A photo leaves once the server has it.
 */
export interface QueuedPageBlob {
  questionId: number
  blob: Blob
}

type PageKey = [number, string]

let defaultStore: UseStore | undefined
const store = () => (defaultStore ??= createStore('quiz-written-pages', 'pages'))

export async function putQueuedPage(attemptId: number, key: string, page: QueuedPageBlob) {
  await set([attemptId, key] satisfies PageKey, page, store())
}

export async function getQueuedPage(attemptId: number, key: string): Promise<QueuedPageBlob | undefined> {
  return get<QueuedPageBlob>([attemptId, key] satisfies PageKey, store())
}

export async function deleteQueuedPage(attemptId: number, key: string) {
  await del([attemptId, key] satisfies PageKey, store())
}

/** The keys of an attempt's photos still on the device. */
export async function queuedPageKeys(attemptId: number): Promise<string[]> {
  const all = await keys<PageKey>(store())
  return all.filter((key) => key[0] === attemptId).map((key) => key[1])
}

/** Where photos wait: IndexedDB unless a test gives another. */
export interface PageBlobStore {
  put: (key: string, page: QueuedPageBlob) => Promise<void>
  get: (key: string) => Promise<QueuedPageBlob | undefined>
  remove: (key: string) => Promise<void>
  keys: () => Promise<string[]>
}

export function indexedDbPageStore(attemptId: number): PageBlobStore {
  return {
    put: (key, page) => putQueuedPage(attemptId, key, page),
    get: (key) => getQueuedPage(attemptId, key),
    remove: (key) => deleteQueuedPage(attemptId, key),
    keys: () => queuedPageKeys(attemptId),
  }
}
