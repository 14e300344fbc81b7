import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../database'
import { columnTypes } from './column-types'

// docs/decisions/018: the append-only audit trail, and one row per login.
export const auditAndLogins = (dialect: Dialect): Migration => {
  const { id, pk } = columnTypes(dialect)

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('audit_events')
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
      await db.schema.createIndex('audit_events_occurred').on('audit_events').columns(['occurred_at', 'id']).execute()
      await db.schema
        .createIndex('audit_events_entity')
        .on('audit_events')
        .columns(['entity_type', 'entity_id', 'occurred_at'])
        .execute()
      await db.schema
        .createIndex('audit_events_actor')
        .on('audit_events')
        .columns(['actor_id', 'occurred_at'])
        .execute()

      // "Never editable" is the database's promise, not only the API's: an UPDATE or DELETE on the table fails.
      if (dialect === 'postgres') {
        await sql`
          create function audit_events_append_only() returns trigger language plpgsql as $$
          begin
            raise exception 'audit_events is append-only';
          end
          $$`.execute(db)
        await sql`
          create trigger audit_events_append_only before update or delete on audit_events
          for each row execute function audit_events_append_only()`.execute(db)
      } else {
        for (const operation of ['update', 'delete']) {
          await sql
            .raw(
              `create trigger audit_events_no_${operation} before ${operation} on audit_events
               begin select raise(abort, 'audit_events is append-only'); end`,
            )
            .execute(db)
        }
      }

      await db.schema
        .createTable('login_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device', 'text', (c) => c.notNull())
        .addColumn('client_address', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('last_used_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('login_sessions_user').on('login_sessions').column('user_id').execute()
      await sql`
        insert into login_sessions (id, user_id, device, client_address, created_at, last_used_at)
        select family_id, min(user_id), '', '', min(created_at), max(created_at) from refresh_tokens
        group by family_id
      `.execute(db)
    },
  }
}
