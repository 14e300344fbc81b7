import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/035: notifications, push subscriptions, and the queue of pushes and texts to send.
export const notifications = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('notifications')
        .addColumn('id', id, pk)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('text_en', 'text', (c) => c.notNull())
        .addColumn('text_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('link', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('read_at', 'bigint')
        .execute()
      await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'id']).execute()
      await db.schema
        .createIndex('notifications_unread')
        .on('notifications')
        .column('user_id')
        .where(sql.ref('read_at'), 'is', null)
        .execute()

      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', id, pk)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint', 'text', (c) => c.notNull().unique())
        .addColumn('p256dh', 'text', (c) => c.notNull())
        .addColumn('auth', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('push_subscriptions_user').on('push_subscriptions').column('user_id').execute()

      await db.schema
        .createTable('deliveries')
        .addColumn('id', id, pk)
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('subscription_id', 'integer', (c) => c.references('push_subscriptions.id').onDelete('cascade'))
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('ttl_seconds', 'integer')
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_until', 'bigint')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .execute()
      await db.schema
        .createIndex('deliveries_due')
        .on('deliveries')
        .column('next_attempt_at')
        .where(sql.ref('status'), '=', 'pending')
        .execute()
      await db.schema.createIndex('deliveries_finished').on('deliveries').column('finished_at').execute()
      await db.schema.createIndex('deliveries_subscription').on('deliveries').column('subscription_id').execute()
      await db.schema.createIndex('deliveries_user').on('deliveries').column('user_id').execute()
    },
  }
}
