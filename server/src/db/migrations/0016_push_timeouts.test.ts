import { afterEach, describe, expect, it } from 'vitest'
import { dialects } from '../../../test/dialects'
import { openDatabaseAt } from '../../../test/migration-database'
import { migrateToLatest } from '../migrate'

// A database an older server left, with browsers subscribed: they keep their rows and start with no timeouts.
describe.each(dialects)('migration 0016_push_timeouts on %s', (dialect) => {
  let drop: (() => Promise<void>) | undefined
  afterEach(async () => drop?.())

  it('keeps the subscriptions, each with 0 timeouts in a row', async () => {
    const opened = await openDatabaseAt(dialect, '0015_paper_set_shows')
    drop = opened.drop
    const { database, insert } = opened
    const now = Date.now()
    const user = await insert('users', {
      username: 'ram',
      username_key: 'ram',
      phone_number: '9800000001',
      password_hash: 'x',
      created_at: now,
    })
    await insert('push_subscriptions', {
      user_id: user,
      endpoint: 'https://push.example.np/1',
      p256dh: 'k',
      auth: 'a',
      created_at: now,
    })

    await migrateToLatest(database)

    expect(await database.db.selectFrom('push_subscriptions').select(['endpoint', 'timeouts']).execute()).toEqual([
      { endpoint: 'https://push.example.np/1', timeouts: 0 },
    ])
  })
})
