import { sql } from 'kysely'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { dialects } from '../../test/dialects'
import { createTestDatabase, dropTestDatabase, TEST_APP_ROLE, appRoleDatabase } from '../../test/test-app'
import { migrateForApp } from './app-role'
import { fromPostgresPool } from './database'
import { inInstituteScope } from './institute-jobs'

// docs/decisions/098: migrations run as the owner, the server as a role that owns nothing and is granted rows.
describe.skipIf(!dialects.includes('postgres'))('the app role on postgres', () => {
  it('migrates as the owner and grants the app role its rows; says so when the owner is not set apart', async () => {
    const created = await createTestDatabase('quiz_roles')
    const owner = fromPostgresPool(new pg.Pool({ connectionString: created.url, max: 2 }))
    // Made (and granted on nothing yet) as the harness makes it; the migrations come from migrateForApp below.
    const app = await appRoleDatabase(owner, created.url, { grant: false })
    const appUrl = new URL(created.url)
    appUrl.username = TEST_APP_ROLE
    try {
      const settings = { kind: 'postgres' as const, url: appUrl.toString(), poolSize: 2 }
      expect(await migrateForApp({ ...settings, ownerUrl: created.url }, app)).toEqual([])
      const tags = () =>
        inInstituteScope('test', 1, () =>
          app.transaction(async (trx) => {
            await trx.insertInto('tags').values({ name: 'one', name_key: 'one' }).execute()
            return trx.selectFrom('tags').select('name').execute()
          }),
        )
      expect(await tags()).toEqual([{ name: 'one' }])
      // No DDL, no TRUNCATE, not the migrations' own tables.
      await expect(sql`truncate tags`.execute(app.db)).rejects.toThrow(/permission denied/)
      await expect(sql`alter table tags disable row level security`.execute(app.db)).rejects.toThrow(/owner/)
      await expect(sql`select * from kysely_migration`.execute(app.db)).rejects.toThrow(/permission denied/)

      // Without DATABASE_OWNER_URL, DATABASE_URL (then the owner's) migrates and the server is told.
      const [warning] = await migrateForApp({ ...settings, url: created.url }, owner)
      expect(warning).toMatch(/DATABASE_OWNER_URL is not set/)
    } finally {
      await app.destroy()
      await owner.destroy()
      await dropTestDatabase(created.name)
    }
  })
})
