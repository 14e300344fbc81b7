// Shared by the benches that measure the database layer in process (bench:key-change, bench:written): the same
// measurement on a fresh SQLite file and, when DATABASE_URL is set, on a fresh PostgreSQL database made and dropped.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { createDatabase } from '../server/src/db/database.ts'

/** Runs `measure(label, database)` on both databases; resolves whether every run met its budget. */
export async function onBothDatabases(name, measure) {
  let within = true
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`))
  try {
    const sqlite = createDatabase({ kind: 'sqlite', file: path.join(dir, 'quiz.db') })
    try {
      within = (await measure('SQLite', sqlite)) && within
    } finally {
      await sqlite.destroy()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  if (!process.env.DATABASE_URL) {
    console.log('PostgreSQL: skipped (set DATABASE_URL to measure it)')
    return within
  }
  const database = `bench_${name.replaceAll('-', '_')}_${process.pid}`
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${database}`)
  const url = new URL(process.env.DATABASE_URL)
  url.pathname = `/${database}`
  const postgres = createDatabase({ kind: 'postgres', url: url.toString(), poolSize: 10 })
  try {
    within = (await measure('PostgreSQL', postgres)) && within
  } finally {
    await postgres.destroy()
    await admin.query(`drop database if exists ${database}`)
    await admin.end()
  }
  return within
}
