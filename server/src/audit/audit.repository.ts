import { sql, type Insertable, type Kysely } from 'kysely'
import type { AuditEventTable, DB } from '../db/schema'

// Only inserts and reads: nothing in the server updates or deletes an event (and the table's triggers refuse it).

/** An institute's trail, or the platform's own (docs/decisions/097): the same columns, kept apart. */
export type AuditTable = 'audit_events' | 'platform_audit_events'

export async function insertAuditEvent(
  db: Kysely<DB>,
  row: Insertable<AuditEventTable>,
  table: AuditTable = 'audit_events',
): Promise<void> {
  await db.insertInto(table).values(row).execute()
}

export async function insertAuditEvents(db: Kysely<DB>, rows: readonly Insertable<AuditEventTable>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 500)
    await db
      .insertInto('audit_events')
      .values(rows.slice(start, start + 500))
      .execute()
}

export interface AuditFilter {
  actor?: string
  entityType?: string
  entityId?: number
  action?: string
  from?: number
  to?: number
}

function matching(db: Kysely<DB>, filter: AuditFilter, table: AuditTable) {
  return db
    .selectFrom(table)
    .$if(filter.actor !== undefined, (query) =>
      // lower() alike on SQLite and PostgreSQL; usernames are ASCII, so that is all the folding they need.
      query.where(sql<boolean>`lower(actor_username) = ${filter.actor!.toLowerCase()}`),
    )
    .$if(filter.entityType !== undefined, (query) => query.where('entity_type', '=', filter.entityType!))
    .$if(filter.entityId !== undefined, (query) => query.where('entity_id', '=', filter.entityId!))
    .$if(filter.action !== undefined, (query) => query.where('action', '=', filter.action!))
    .$if(filter.from !== undefined, (query) => query.where('occurred_at', '>=', filter.from!))
    .$if(filter.to !== undefined, (query) => query.where('occurred_at', '<', filter.to!))
}

export async function countAuditEvents(
  db: Kysely<DB>,
  filter: AuditFilter,
  table: AuditTable = 'audit_events',
): Promise<number> {
  const row = await matching(db, filter, table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function pageAuditEvents(
  db: Kysely<DB>,
  filter: AuditFilter,
  { limit, offset }: { limit: number; offset: number },
  table: AuditTable = 'audit_events',
) {
  return matching(db, filter, table)
    .selectAll()
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}
