import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// Papers cached before the upgrade were keyed by the passages' own versions; after it, by the institute's number.
// An institute that may hold passages starts at 1, so its papers read them; the passages lose their own version.
describe.each(dialects)('migration 0078_passages_version on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('starts every existing institute at 1 and new ones at 0, and drops the passages’ own version', async () => {
    const opened = await openDatabaseAt(dialect, '0076_institutes_with_work')
    drop = opened.drop
    const { database, insert, db } = opened
    const now = Date.now()
    await insert('passages', { text_en: 'The Koshi river', text_ne: '', created_at: now, updated_at: now, version: 3 })

    await migrateToLatest(database)

    // The platform's reserved institute (id 0, decision 101) and main.
    expect(await db.selectFrom('institutes').select(['id', 'passages_version']).orderBy('id').execute()).toEqual([
      { id: 0, passages_version: 1 },
      { id: 1, passages_version: 1 },
    ])
    const passage = await db.selectFrom('passages').selectAll().executeTakeFirstOrThrow()
    expect(passage.text_en).toBe('The Koshi river')
    expect(passage).not.toHaveProperty('version')
    await insert('institutes', { slug: 'pathshala', name_en: 'Pathshala', created_at: now })
    expect(
      await db.selectFrom('institutes').select('passages_version').where('slug', '=', 'pathshala').execute(),
    ).toEqual([{ passages_version: 0 }])
  })
})
