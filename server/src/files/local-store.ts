import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { checkedKey, FileStoreUnavailable, type FileStore, type StoredFile } from './file-store'

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT'

/**
 * Files under `root` (the data directory's files/ by default), one file a key. A write goes to a temporary file in
 * the same directory and is renamed into place, so a reader or a crash mid-write never leaves half a file.
 */
export function createLocalStore(root: string): FileStore {
  const fileOf = (key: string) => path.join(root, ...checkedKey(key).split('/'))

  // A disk that fails (EIO, a lost mount) is an unreachable store: 503 for that file, not 500 for the app.
  const unavailable = (key: string, error: unknown) => new FileStoreUnavailable(key, { cause: error })

  return {
    kind: 'local',
    async put(key, data) {
      const file = fileOf(key)
      const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await mkdir(path.dirname(file), { recursive: true })
        await writeFile(temporary, data, { mode: 0o600 })
        await rename(temporary, file)
      } catch (error) {
        await rm(temporary, { force: true }).catch(() => {})
        throw unavailable(key, error)
      }
    },
    async get(key) {
      try {
        return await readFile(fileOf(key))
      } catch (error) {
        if (missing(error)) return undefined
        throw unavailable(key, error)
      }
    },
    async delete(key) {
      try {
        await rm(fileOf(key), { force: true })
      } catch (error) {
        throw unavailable(key, error)
      }
    },
    async *list(prefix) {
      const folder = path.join(root, ...checkedKey(prefix.replace(/\/$/, '')).split('/'))
      let names: string[]
      try {
        names = await readdir(folder, { recursive: true })
      } catch (error) {
        if (missing(error)) return
        throw unavailable(prefix, error)
      }
      const page: StoredFile[] = []
      for (const name of names) {
        const info = await stat(path.join(folder, name)).catch(() => undefined)
        if (!info?.isFile()) continue
        page.push({ key: `${prefix.replace(/\/$/, '')}/${name.split(path.sep).join('/')}`, modifiedAt: info.mtimeMs })
        if (page.length === 1000) yield page.splice(0)
      }
      if (page.length > 0) yield page
    },
    async exists(key) {
      try {
        return (await stat(fileOf(key))).isFile()
      } catch (error) {
        if (missing(error)) return false
        throw unavailable(key, error)
      }
    },
  }
}
