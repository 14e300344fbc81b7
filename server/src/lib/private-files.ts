import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'

// The data folder holds the database, its WAL, backups, the SMS outbox (codes) and the development JWT secret:
// nobody but the server's own user reads them (docs/decisions/023). Modes are set on what exists as well, so a
// folder made by an older version is closed on the next start.

/** Makes `dir` (and its parents) if missing, and leaves it readable by its owner alone. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
}

/** Makes `file` empty if missing (SQLite gives its -wal and -shm the database file's mode), owner-only either way. */
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
}

/** Owner-only for the files among `files` that exist. */
export function closeExisting(files: readonly string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, 0o600)
}
