import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { fromSqlite } from '../database'
import { migrateToLatest, migrateUpTo } from '../migrate'
import { SQLite } from '../sqlite-driver'

// A database with logins made before active logins existed: each refresh-token family becomes one login, with its
// first and latest token's times and no device or address (they were never recorded).
describe('migration 0006_audit_and_logins on a database with logins', () => {
  it('makes one login per refresh-token family, and an append-only audit table', async () => {
    const database = fromSqlite(new SQLite(':memory:'))
    const { db } = database
    await migrateUpTo(database, '0005_institutions')
    await db
      .insertInto('users')
      .values({ username: 'u', username_key: 'u', phone_number: '9800000001', password_hash: 'x', created_at: 1 })
      .execute()
    const token = (jti: string, family: string, created: number) =>
      db
        .insertInto('refresh_tokens')
        .values({ jti, user_id: 1, family_id: family, expires_at: 10_000, created_at: created })
        .execute()
    await token('a1', 'family-a', 100)
    await token('a2', 'family-a', 250)
    await token('b1', 'family-b', 300)

    await migrateToLatest(database)

    expect(await db.selectFrom('login_sessions').selectAll().orderBy('id').execute()).toEqual([
      { id: 'family-a', user_id: 1, device: '', client_address: '', created_at: 100, last_used_at: 250 },
      { id: 'family-b', user_id: 1, device: '', client_address: '', created_at: 300, last_used_at: 300 },
    ])
    await db
      .insertInto('audit_events')
      .values({
        occurred_at: 1,
        actor_id: null,
        actor_username: 'root',
        client_address: null,
        action: 'update',
        entity_type: 'user',
        entity_id: 1,
        entity_label: 'u',
        before_json: null,
        after_json: '{}',
      })
      .execute()
    await expect(sql`update audit_events set action = 'delete'`.execute(db)).rejects.toThrow(/append-only/)
    await expect(sql`delete from audit_events`.execute(db)).rejects.toThrow(/append-only/)
    await database.destroy()
  })
})
