// One interface for every stored file (API.md "Operations", Files; docs/decisions/105). Shared code: no feature here.

export interface FileStore {
  /** 'local': files under the data directory; 's3': a bucket of an S3-compatible store. */
  readonly kind: 'local' | 's3'
  /** Writes the whole file or nothing: a reader never sees half of one. Overwrites a file of the same key. */
  put(key: string, data: Buffer, contentType: string): Promise<void>
  /** The file's bytes, undefined if there is none of that key. */
  get(key: string): Promise<Buffer | undefined>
  /** Removes the file; removing one that is not there is no error. */
  delete(key: string): Promise<void>
  exists(key: string): Promise<boolean>
  /**
   * Every file under `prefix` (a folder such as 'pages/'), with when it was last written, a page at a time: for the
   * sweep of files no row names (db/file-sweep.ts). The local store lists its temporary files too.
   */
  list(prefix: string): AsyncIterable<StoredFile[]>
  /**
   * An address the browser may fetch the file from for `seconds` (at most 5 minutes), where the store can give one;
   * the local store cannot, and its files are served through the app.
   */
  signedUrl?(key: string, options: { seconds: number; contentType: string }): Promise<string>
}

export interface StoredFile {
  key: string
  /** When it was last written, ms since the epoch. */
  modifiedAt: number
}

/** At most this long a signed address lives: a link that leaks is worthless soon (API.md "Operations"). */
export const MAX_SIGNED_SECONDS = 300

export const fileStoreUnavailableDetail = 'This file cannot be reached just now. Please try again in a moment.'

/**
 * The store could not be reached: the request of that file answers 503 with Retry-After (http/errors.ts), the rest
 * of the app goes on. Not an AppError: files/ sits below http/ (eslint/boundaries.js).
 */
export class FileStoreUnavailable extends Error {
  readonly status = 503
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(fileStoreUnavailableDetail, options)
  }
}

/** Keys are ours, made of hashes and ids; anything else (a '..', a leading '/') is a bug, refused before it travels. */
export function checkedKey(key: string): string {
  if (!/^[a-z0-9_-][a-z0-9._-]*(\/[a-z0-9_-][a-z0-9._-]*)*$/i.test(key) || key.includes('..'))
    throw new Error(`Not a file key: ${JSON.stringify(key)}`)
  return key
}
