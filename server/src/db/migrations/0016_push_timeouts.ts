import { type Kysely, type Migration } from 'kysely'

// docs/decisions/042: a subscription whose push service times out again and again is dropped.
export const pushTimeouts = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('push_subscriptions')
      .addColumn('timeouts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
})
