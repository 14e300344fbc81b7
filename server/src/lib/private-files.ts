import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs'

// Nobody but the server's own user reads the data folder (docs/decisions/023). Modes are set on what exists as well,
// so a folder made by an older version is closed on the next start.

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
