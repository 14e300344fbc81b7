import { type Kysely, type Migration } from 'kysely'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/042: a subscription whose push service times out again and again is dropped, so one learner's
// endpoints that accept a connection and never answer stop taking the sender's time. The count is per
// subscription and starts again at every push that gets an answer.
export const pushTimeouts = (): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('push_subscriptions')
      .addColumn('timeouts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute()
  },
})
