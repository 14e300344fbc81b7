import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// Frozen in time: change the schema with a new migration, never by editing this one.
// docs/decisions/097: the platform's own audit trail, apart from every institute's (audit_events is theirs), with
// audit_events' columns and its append-only promise; and the index the platform's usage counts attempts by.
export const platformAudit = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('platform_audit_events')
        .addColumn('id', id, pk)
        .addColumn('occurred_at', 'bigint', (c) => c.notNull())
        .addColumn('actor_id', 'integer')
        .addColumn('actor_username', 'text', (c) => c.notNull())
        .addColumn('client_address', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('entity_type', 'text', (c) => c.notNull())
        .addColumn('entity_id', 'integer')
        .addColumn('entity_label', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('before_json', 'text')
        .addColumn('after_json', 'text')
        .execute()
      await db.schema
        .createIndex('platform_audit_events_occurred')
        .on('platform_audit_events')
        .columns(['occurred_at', 'id'])
        .execute()
      // Attempts started this month, per institute, for a page of institutes (platform.repository.ts usageOf).
      await db.schema
        .createIndex('attempts_by_institute_started')
        .on('attempts')
        .columns(['institute_id', 'started_at'])
        .execute()
      if (dialect === 'postgres') {
        await sql`
          create function platform_audit_events_append_only() returns trigger language plpgsql as $$
          begin
            raise exception 'platform_audit_events is append-only';
          end
          $$`.execute(db)
        await sql`
          create trigger platform_audit_events_append_only before update or delete on platform_audit_events
          for each row execute function platform_audit_events_append_only()`.execute(db)
      } else {
        for (const operation of ['update', 'delete']) {
          await sql
            .raw(
              `create trigger platform_audit_events_no_${operation} before ${operation} on platform_audit_events
               begin select raise(abort, 'platform_audit_events is append-only'); end`,
            )
            .execute(db)
        }
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('attempts_by_institute_started').execute()
      await db.schema.dropTable('platform_audit_events').execute()
      if (dialect === 'postgres') await sql`drop function platform_audit_events_append_only()`.execute(db)
    },
  }
}
