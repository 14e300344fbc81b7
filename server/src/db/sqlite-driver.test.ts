import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { nodeMajor, sqliteDriverPackage } from './sqlite-driver'

describe('the SQLite driver for this Node.js line', () => {
  it('is better-sqlite3 13 (Node-API) on Node 22 and newer, and 12 only on Node 20', () => {
    const { version } = createRequire(import.meta.url)(`${sqliteDriverPackage}/package.json`) as { version: string }
    expect(Number(version.split('.')[0])).toBe(nodeMajor >= 22 ? 13 : 12)
  })

  // nodejs/node issue 65446: on Node 24.19+ better-sqlite3 12 built from source aborts when statements are
  // garbage-collected. A child process, so an abort shows as a signal instead of killing the test worker.
  it('survives 200,000 statements prepared, dropped and collected, and a close at exit', () => {
    const script = `
      import { SQLite } from './src/db/sqlite-driver.ts'
      const db = new SQLite(':memory:')
      for (let i = 0; i < 200_000; i++) db.prepare('select ' + (i % 5000) + ' as n').get()
      globalThis.gc()
      db.close()
      console.log('done')
    `
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.join(import.meta.dirname, '../..'),
      encoding: 'utf8',
      timeout: 120_000,
    })
    expect({ signal: child.signal, status: child.status, stdout: child.stdout.trim() }).toEqual({
      signal: null,
      status: 0,
      stdout: 'done',
    })
  })
})
