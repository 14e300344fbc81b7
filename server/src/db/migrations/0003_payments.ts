import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// 9999-12-31T23:59:59.999Z, written out rather than imported: a migration is frozen in time.
const NO_END = 253402300799999

export const payments = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('paid_access_until', 'bigint').execute()
      await sql`update users set paid_access_until = ${NO_END} where has_paid_access = 1`.execute(db)
      await db.schema.alterTable('users').dropColumn('has_paid_access').execute()

      await db.schema
        .createTable('plans')
        .addColumn('id', id, pk)
        .addColumn('name_en', 'text', (c) => c.notNull())
        .addColumn('name_ne', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('price_paisa', 'integer', (c) => c.notNull().check(sql`price_paisa >= 1000`))
        .addColumn('days', 'integer', (c) => c.notNull().check(sql`days between 1 and 3660`))
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('payments')
        .addColumn('id', id, pk)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('plan_id', 'integer', (c) => c.notNull().references('plans.id'))
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('amount_paisa', 'integer', (c) => c.notNull())
        .addColumn('days', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
        .addColumn('failure_reason', 'text')
        .addColumn('provider_ref', 'text')
        .addColumn('provider_transaction_id', 'text')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('completed_at', 'bigint')
        .execute()
      await db.schema
        .createIndex('payments_provider_ref')
        .on('payments')
        .columns(['provider', 'provider_ref'])
        .unique()
        .execute()
      await db.schema.createIndex('payments_user').on('payments').columns(['user_id', 'id']).execute()
      await db.schema.createIndex('payments_status').on('payments').columns(['status', 'id']).execute()

      await db.schema
        .createTable('fake_gateway_transactions')
        .addColumn('ref', 'text', (c) => c.primaryKey())
        .addColumn('amount_paisa', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute()
    },
  }
}
