import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromSqlite, type Database } from '../db/database'
import { migrateToLatest } from '../db/migrate'
import { SQLite } from '../db/sqlite-driver'
import { createBankQuestions } from '../../test/factories'
import { createRevisionCache } from './revision-cache'
import type { RevisionWithOptions } from './question-revisions.repository'

let database: Database
afterEach(() => database.destroy())

async function bankOf(count: number) {
  database = fromSqlite(new SQLite(':memory:'))
  await migrateToLatest(database)
  await createBankQuestions(database.db, 'Cache', count, 0)
  const rows = await database.db.selectFrom('questions').select('revision_id').orderBy('id').execute()
  return rows.map((row) => row.revision_id!)
}

const textOf = (revision: RevisionWithOptions) => `${revision.text_en} (${revision.options.length} options)`

describe('createRevisionCache', () => {
  it('builds each revision once, answers in the order asked, and reads nothing once all are cached', async () => {
    const [a, b, c] = await bankOf(3)
    const build = vi.fn(textOf)
    const cache = createRevisionCache(build, { maxChars: 1_000_000 })
    const first = await cache.get(database.db, [c!, a!, c!])
    expect(first).toHaveLength(3)
    expect(first[0]).toBe(first[2])
    expect(build).toHaveBeenCalledTimes(2)

    const read = vi.spyOn(database.db, 'selectFrom')
    expect(await cache.get(database.db, [a!, c!])).toEqual([first[1], first[0]])
    expect(read).not.toHaveBeenCalled()
    await cache.get(database.db, [b!, a!])
    expect(build).toHaveBeenCalledTimes(3)
    expect(read).toHaveBeenCalled()
  })

  it('refuses a revision that does not exist', async () => {
    const [a] = await bankOf(1)
    const cache = createRevisionCache(textOf, { maxChars: 1_000_000 })
    await expect(cache.get(database.db, [a!, 999_999])).rejects.toThrow('question revision 999999 is missing')
  })

  it('lets the oldest entries go past its size, and builds them again when asked', async () => {
    const [a, b, c] = await bankOf(3)
    const build = vi.fn(textOf)
    // Each revision of two short options weighs about 530 characters: room for one at a time.
    const cache = createRevisionCache(build, { maxChars: 900 })
    for (const id of [a!, b!, c!]) await cache.get(database.db, [id])
    expect(build).toHaveBeenCalledTimes(3)
    await cache.get(database.db, [c!])
    expect(build).toHaveBeenCalledTimes(3)
    await cache.get(database.db, [a!])
    expect(build).toHaveBeenCalledTimes(4)
  })
})
