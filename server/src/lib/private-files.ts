import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'

// Owner-only (docs/decisions/023); set on what exists too, so a folder made by an older version is closed.

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  chmodSync(dir, 0o700)
}

// SQLite gives its -wal and -shm the database file's mode.
export function ensurePrivateFile(file: string): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
}

export function closeExisting(files: readonly string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, 0o600)
}
