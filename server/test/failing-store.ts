import { FileStoreUnavailable, type FileStore } from '../src/files'

// A store whose writes fail as the real stores report it (FileStoreUnavailable), swapped in on the very store the
// test's app holds, as answering.routes.test.ts does for reads: the app and its database stay real.

/**
 * From the write after the first `after` on, every `put` fails. With `kept: true` the file is written first and the
 * failure comes after (an S3 answer lost on the way back, a disk that fails on close): the store holds a file the
 * app believes was never written. Returns the function that puts the store back.
 */
export function failWrites(store: FileStore, { after = 0, kept = false } = {}): () => void {
  const put = store.put
  let writes = 0
  store.put = async (key, data, contentType) => {
    if (writes++ < after) return put(key, data, contentType)
    if (kept) await put(key, data, contentType)
    throw new FileStoreUnavailable(key)
  }
  return () => {
    store.put = put
  }
}

/** Every key under `folder` in the store, sorted. */
export async function keysIn(store: FileStore, folder: string): Promise<string[]> {
  const keys: string[] = []
  for await (const page of store.list(folder)) for (const file of page) keys.push(file.key)
  return keys.sort()
}
