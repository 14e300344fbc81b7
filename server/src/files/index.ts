import path from 'node:path'
import type { Config } from '../config'
import type { FileStore } from './file-store'
import { createLocalStore } from './local-store'
import { createS3Store } from './s3-store'

export type { FileStore } from './file-store'
export { FileStoreUnavailable, MAX_SIGNED_SECONDS } from './file-store'

/** The store FILE_STORE names: the data directory's files/ (local) or the configured bucket (s3). */
export function createFileStore(config: Pick<Config, 'dataDir' | 'files'>): FileStore {
  const files = config.files
  if (files.kind === 's3') return createS3Store(files.s3)
  return createLocalStore(files.dir ?? path.join(config.dataDir, 'files'))
}
