import path from 'node:path'
import type { Config } from '../config'
import type { FileStore } from './file-store'
import { createLocalStore } from './local-store'
import { createS3Store } from './s3-store'

export type { FileStore } from './file-store'
export { FileStoreUnavailable, MAX_SIGNED_SECONDS } from './file-store'

/** Where the files are, for `npm run backup` to say what to back up beside the database (docs/operations.md). */
export function fileStoreBackupNote(config: Pick<Config, 'dataDir' | 'files'>): string {
  const files = config.files
  if (files.kind === 's3')
    return (
      `Files (pictures, sheet photos, pages) are in bucket ${files.s3.bucket}` +
      `${files.s3.endpoint ? ` at ${files.s3.endpoint}` : ''}: back the bucket up with the store's versioning or a ` +
      'copy of it (rclone sync), taken after this backup.'
    )
  const dir = files.dir ?? path.join(config.dataDir, 'files')
  return (
    `Files (pictures, sheet photos, pages) are in ${dir}: copy that folder beside this backup (rsync -a), ` +
    'taken after it, so every file the database names is there.'
  )
}

/** The store FILE_STORE names: the data directory's files/ (local) or the configured bucket (s3). */
export function createFileStore(config: Pick<Config, 'dataDir' | 'files'>): FileStore {
  const files = config.files
  if (files.kind === 's3') return createS3Store(files.s3)
  return createLocalStore(files.dir ?? path.join(config.dataDir, 'files'))
}

/**
 * Where the browser may fetch the file itself for `seconds` (capped at MAX_SIGNED_SECONDS), when redirects are on
 * and the store signs (S3); undefined when the app serves the bytes.
 */
export async function signedAddress(
  files: FileStore,
  redirects: boolean,
  key: string | null,
  options: { seconds: number; contentType: string },
): Promise<string | undefined> {
  if (!redirects || key === null || !files.signedUrl || options.seconds < 1) return undefined
  return files.signedUrl(key, options)
}
